// Dashboard users of one account: invitations with single-use set-up links, sign-in with rate limits,
// server-side sessions, roles, and the audit log of what they do.
import type { Redis } from 'ioredis';
import type { Kysely } from 'kysely';
import type { Database } from '../storage/schema.ts';
import { DomainError } from '../errors.ts';
import { newId } from '../ids.ts';
import { hashSecret, newSecretToken } from '../secrets.ts';
import { type FloodLimiter, createMemoryFloodLimiter, createRedisFloodLimiter } from '../http/flood.ts';
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH, UNUSABLE_HASH, hashPassword, verifyPassword } from './passwords.ts';
import { type AuditEntry, type User, type UserSecrets, createUsersRepository } from './repository.ts';
import { newTotpSecret, totpStep, totpUri } from './totp.ts';
import { ROLES, type Role } from './tables.ts';

export type { AuditEntry, User };

export const SETUP_LINK_HOURS = 24;
export const SESSION_HOURS = 12;
/** Failed sign-in attempts allowed per window, from one address and against one account. */
export const SIGN_IN_LIMITS = { perAddress: 20, perAccount: 10, windowSeconds: 300 } as const;

const HOUR_MS = 3_600_000;
const EMAIL = /^[^\s@]{1,64}@[^\s@]{1,255}$/;


/** Who acts in the dashboard, for the audit log. */
export interface Actor {
  user: User;
  ip: string | null;
}

export interface Session {
  user: User;
  csrfToken: string;
  expiresAt: string;
}

export type SignIn =
  | { ok: true; token: string; session: Session }
  | { ok: false; reason: 'invalid_credentials' }
  | { ok: false; reason: 'rate_limited'; retryAfterSeconds: number };

export interface UsersService {
  /** A new user with a single-use set-up link, valid 24 h. Throws `invalid_input` or `conflict` (email taken). */
  invite(accountId: string, input: { email: string; role: Role }, actor?: Actor): Promise<{ user: User; setupUrl: string }>;
  /** The user a set-up token belongs to while it is unspent and fresh. */
  setupUser(token: string): Promise<User | undefined>;
  /** Sets the password and spends the link. Throws `not_found` (spent, expired, unknown) or `invalid_input`. */
  completeSetup(token: string, password: string): Promise<User>;
  /** `code`: the TOTP code, needed once the user turned the second factor on. */
  signIn(input: { email: string; password: string; code?: string; ip: string }): Promise<SignIn>;
  /** Starts enrolling a TOTP second factor: the secret to put in an authenticator app. Throws `conflict` when on. */
  startTwoFactor(actor: Actor): Promise<{ secret: string; uri: string }>;
  /** Turns the second factor on with a first code from the app. Throws `invalid_input` for a wrong code. */
  confirmTwoFactor(actor: Actor, code: string): Promise<void>;
  /** Turns it off; needs a current code. */
  disableTwoFactor(actor: Actor, code: string): Promise<void>;
  session(token: string): Promise<Session | undefined>;
  signOut(token: string, actor: Actor): Promise<void>;
  /** Ends every session of the user, on every device. */
  signOutEverywhere(actor: Actor): Promise<void>;
  list(accountId: string): Promise<User[]>;
  find(accountId: string, userId: string): Promise<User | undefined>;
  /** Throws `not_found` (another account's user) or `conflict` (the last active admin, or oneself). */
  changeRole(actor: Actor, userId: string, role: Role): Promise<User>;
  /** Disables the user and ends their sessions; same refusals as changeRole. */
  disable(actor: Actor, userId: string): Promise<User>;
  audit(actor: Actor, action: string, target?: string | null, details?: Record<string, unknown>): Promise<void>;
  auditLog(accountId: string, page: { limit: number; before?: { at: string; id: string } }): Promise<AuditEntry[]>;
}

export interface UsersServiceDeps {
  db: Kysely<Database>;
  /** Set-up links point here. */
  baseUrl: string;
  /** Sign-in limits are shared by every instance through Redis when it is configured. */
  redis?: { client: Redis; prefix: string };
}

export function createUsersService(deps: UsersServiceDeps, now: () => Date = () => new Date()): UsersService {
  const repository = createUsersRepository(deps.db);
  const limiter = (name: string, limit: number): FloodLimiter =>
    deps.redis
      ? createRedisFloodLimiter(deps.redis.client, `${deps.redis.prefix}${name}:`, limit, SIGN_IN_LIMITS.windowSeconds)
      : createMemoryFloodLimiter(limit, SIGN_IN_LIMITS.windowSeconds);
  const perAddress = limiter('signin-address', SIGN_IN_LIMITS.perAddress);
  const perAccount = limiter('signin-account', SIGN_IN_LIMITS.perAccount);

  async function audit(actor: Actor, action: string, target: string | null = null, details: Record<string, unknown> = {}) {
    await repository.insertAudit({
      id: newId('aud'),
      account_id: actor.user.accountId,
      at: now().toISOString(),
      actor: actor.user.id,
      actor_email: actor.user.email,
      action,
      target,
      ip: actor.ip,
      details: JSON.stringify(details),
    });
  }

  /** True without a second factor; with one, the code must be current and not used before. */
  async function secondFactorHolds(found: { user: User; secrets: UserSecrets } | undefined, code: string, at: Date): Promise<boolean> {
    if (!found?.secrets.totpEnabled || !found.secrets.totpSecret) return true;
    const step = totpStep(found.secrets.totpSecret, code, at);
    return step !== null && (await repository.acceptTotpStep(found.user.id, step));
  }

  async function otherUser(actor: Actor, userId: string): Promise<User> {
    const user = await repository.userInAccount(actor.user.accountId, userId);
    if (!user) throw new DomainError('not_found', 'No such user');
    if (user.id === actor.user.id) throw new DomainError('conflict', 'Ask another admin to change your own role or access');
    return user;
  }

  return {
    async invite(accountId, { email, role }, actor) {
      const address = email.trim().toLowerCase();
      const issues = [];
      if (!EMAIL.test(address)) issues.push({ path: '/email', message: 'must be an email address' });
      if (!ROLES.includes(role)) issues.push({ path: '/role', message: `must be one of ${ROLES.join(', ')}` });
      if (issues.length) throw DomainError.invalid(issues);
      if (await repository.userByEmail(address)) throw new DomainError('conflict', 'A user with this email exists');
      const token = newSecretToken();
      const at = now();
      const user = await repository.insertUser({
        id: newId('usr'),
        account_id: accountId,
        email: address,
        role,
        status: 'invited',
        password_hash: null,
        setup_token_hash: hashSecret(token),
        setup_expires_at: new Date(at.getTime() + SETUP_LINK_HOURS * HOUR_MS).toISOString(),
        totp_secret: null,
        totp_enabled_at: null,
        totp_last_step: null,
        created_at: at.toISOString(),
        updated_at: at.toISOString(),
      });
      if (actor) await audit(actor, 'user.invited', user.id, { email: user.email, role });
      return { user, setupUrl: `${deps.baseUrl}/dashboard/setup/${token}` };
    },

    setupUser: (token) => repository.userBySetupToken(hashSecret(token), now().toISOString()),

    async completeSetup(token, password) {
      if (password.length < PASSWORD_MIN_LENGTH || password.length > PASSWORD_MAX_LENGTH) {
        throw DomainError.invalid([{ path: '/password', message: `must be ${PASSWORD_MIN_LENGTH} to ${PASSWORD_MAX_LENGTH} characters long` }]);
      }
      const user = await repository.userBySetupToken(hashSecret(token), now().toISOString());
      if (!user) throw new DomainError('not_found', 'This set-up link was used already or has expired');
      if (!(await repository.completeSetup(hashSecret(token), await hashPassword(password), now().toISOString()))) {
        throw new DomainError('not_found', 'This set-up link was used already or has expired');
      }
      await audit({ user, ip: null }, 'user.setup_completed', user.id);
      return { ...user, status: 'active' };
    },

    async signIn({ email, password, code, ip }) {
      const address = email.trim().toLowerCase();
      const at = now();
      const found = await repository.userByEmail(address);
      const user = found?.user;
      // Failures count, per address and per account (an unknown email under its own name); once either is used
      // up, even the right password waits for the window to end, so guessing gains nothing by persisting.
      const limits = [
        { limiter: perAddress, key: ip },
        { limiter: perAccount, key: user?.accountId ?? `email:${address}` },
      ];
      const refused = (await Promise.all(limits.map(({ limiter, key }) => limiter.peek(key, at.getTime())))).find((verdict) => !verdict.allowed);
      if (refused) return { ok: false, reason: 'rate_limited', retryAfterSeconds: refused.resetSeconds };
      const matches = (await verifyPassword(password, found?.secrets.passwordHash ?? UNUSABLE_HASH)) && (await secondFactorHolds(found, code ?? '', at));
      if (!user || !matches || user.status !== 'active') {
        await Promise.all(limits.map(({ limiter, key }) => limiter.hit(key, at.getTime())));
        if (user) await audit({ user, ip }, 'user.sign_in_failed', user.id);
        return { ok: false, reason: 'invalid_credentials' };
      }
      const token = newSecretToken();
      const session: Session = {
        user,
        csrfToken: newSecretToken(),
        expiresAt: new Date(at.getTime() + SESSION_HOURS * HOUR_MS).toISOString(),
      };
      await repository.insertSession({
        token_hash: hashSecret(token),
        user_id: user.id,
        account_id: user.accountId,
        csrf_token: session.csrfToken,
        created_at: at.toISOString(),
        expires_at: session.expiresAt,
        revoked_at: null,
      });
      await audit({ user, ip }, 'user.signed_in', user.id);
      return { ok: true, token, session };
    },

    async startTwoFactor(actor) {
      if ((await repository.totpOf(actor.user.id)).enabled) throw new DomainError('conflict', 'The second factor is on already');
      const secret = newTotpSecret();
      await repository.setTotp(actor.user.id, { secret, enabledAt: null }, now().toISOString());
      return { secret, uri: totpUri(secret, actor.user.email) };
    },

    async confirmTwoFactor(actor, code) {
      const at = now();
      const { secret, enabled } = await repository.totpOf(actor.user.id);
      if (enabled) throw new DomainError('conflict', 'The second factor is on already');
      const step = secret ? totpStep(secret, code, at) : null;
      if (step === null) throw DomainError.invalid([{ path: '/code', message: 'is not the code the authenticator app shows now' }]);
      await repository.setTotp(actor.user.id, { secret, enabledAt: at.toISOString(), step }, at.toISOString());
      await audit(actor, 'user.two_factor_enabled', actor.user.id);
    },

    async disableTwoFactor(actor, code) {
      const at = now();
      const { secret, enabled } = await repository.totpOf(actor.user.id);
      const step = enabled && secret ? totpStep(secret, code, at) : null;
      if (step === null || !(await repository.acceptTotpStep(actor.user.id, step))) {
        throw DomainError.invalid([{ path: '/code', message: 'is not the code the authenticator app shows now' }]);
      }
      await repository.setTotp(actor.user.id, { secret: null, enabledAt: null }, at.toISOString());
      await audit(actor, 'user.two_factor_disabled', actor.user.id);
    },

    session: (token) => repository.liveSession(hashSecret(token), now().toISOString()),

    async signOut(token, actor) {
      await repository.revokeSession(hashSecret(token), now().toISOString());
      await audit(actor, 'user.signed_out', actor.user.id);
    },

    async signOutEverywhere(actor) {
      await repository.revokeSessionsOf(actor.user.id, now().toISOString());
      await audit(actor, 'user.signed_out_everywhere', actor.user.id);
    },

    list: (accountId) => repository.usersOf(accountId),
    find: (accountId, userId) => repository.userInAccount(accountId, userId),

    async changeRole(actor, userId, role) {
      if (!ROLES.includes(role)) throw DomainError.invalid([{ path: '/role', message: `must be one of ${ROLES.join(', ')}` }]);
      const user = await otherUser(actor, userId);
      const changed = (await repository.updateUser(actor.user.accountId, user.id, { role }, now().toISOString()))!;
      await audit(actor, 'user.role_changed', user.id, { from: user.role, to: role });
      return changed;
    },

    async disable(actor, userId) {
      const user = await otherUser(actor, userId);
      const at = now().toISOString();
      const disabled = (await repository.updateUser(actor.user.accountId, user.id, { status: 'disabled' }, at))!;
      await repository.revokeSessionsOf(user.id, at);
      await audit(actor, 'user.disabled', user.id);
      return disabled;
    },

    audit: (actor, action, target, details) => audit(actor, action, target, details),
    auditLog: (accountId, { limit, before }) => repository.auditOf(accountId, limit, before),
  };
}
