// Users, sign-in and sessions of the dashboard: set-up links used once, passwords hashed with scrypt, sign-in
// limited per address and per account, sessions server-side and revocable, CSRF on every state change.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SIGN_IN_LIMITS } from '../../src/users/service.ts';
import { type TestApp, type Tenant, createTestApp } from '../helpers/app.ts';
import { Browser, PASSWORD, signedIn } from '../helpers/dashboard.ts';

let t: TestApp;
let tenant: Tenant;

beforeAll(async () => {
  t = await createTestApp();
  tenant = await t.tenant();
});
afterAll(() => t.close());

const setupPath = (setupUrl: string) => new URL(setupUrl).pathname;

describe('set-up links', () => {
  it('set a password once; the stored hash is scrypt, never the password; the link then answers 404', async () => {
    const { user, setupUrl } = await t.context.services.users.invite(tenant.accountId, { email: 'New.Analyst@Example.com', role: 'analyst' });
    expect(user.email).toBe('new.analyst@example.com');
    expect(setupUrl).toMatch(/^http:\/\/kyx\.test\/dashboard\/setup\/[A-Za-z0-9_-]{43}$/);
    const browser = new Browser(t);
    const page = await browser.get(setupPath(setupUrl));
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('new.analyst@example.com');
    const mismatch = await browser.post(setupPath(setupUrl), { _csrf: Browser.csrfOf(page), password: PASSWORD, confirm: `${PASSWORD}!` });
    expect(mismatch.statusCode).toBe(422);
    const short = await browser.post(setupPath(setupUrl), { _csrf: Browser.csrfOf(page), password: 'short', confirm: 'short' });
    expect(short.statusCode).toBe(400);
    const done = await browser.post(setupPath(setupUrl), { _csrf: Browser.csrfOf(page), password: PASSWORD, confirm: PASSWORD });
    expect(done.statusCode).toBe(303);
    expect(done.headers.location).toBe('/dashboard/login?setup=done');
    const row = await t.context.storage.db.selectFrom('users').selectAll().where('id', '=', user.id).executeTakeFirstOrThrow();
    expect(row.password_hash).toMatch(/^scrypt\$32768\$8\$1\$/);
    expect(row.password_hash).not.toContain(PASSWORD);
    expect(row).toMatchObject({ status: 'active', setup_token_hash: null });
    expect((await browser.get(setupPath(setupUrl))).statusCode).toBe(404);
    expect((await browser.signIn('NEW.analyst@example.com')).statusCode).toBe(303);
  });

  it('refuses an expired link', async () => {
    const { user, setupUrl } = await t.context.services.users.invite(tenant.accountId, { email: 'late@example.com', role: 'viewer' });
    await t.context.storage.db.updateTable('users').set({ setup_expires_at: new Date(Date.now() - 1000).toISOString() }).where('id', '=', user.id).execute();
    expect((await new Browser(t).get(setupPath(setupUrl))).statusCode).toBe(404);
    await expect(t.context.services.users.completeSetup(setupUrl.split('/').at(-1)!, PASSWORD)).rejects.toMatchObject({ code: 'not_found' });
  });

  it('refuses an email taken by any account, and a malformed one', async () => {
    await t.context.services.users.invite(tenant.accountId, { email: 'taken@example.com', role: 'viewer' });
    await expect(t.context.services.users.invite(tenant.accountId, { email: 'taken@example.com', role: 'viewer' })).rejects.toMatchObject({ code: 'conflict' });
    const other = await t.tenant();
    await expect(t.context.services.users.invite(other.accountId, { email: 'TAKEN@example.com', role: 'viewer' })).rejects.toMatchObject({ code: 'conflict' });
    await expect(t.context.services.users.invite(tenant.accountId, { email: 'not an email', role: 'viewer' })).rejects.toMatchObject({ code: 'invalid_input' });
  });
});

/**
 * The sign-in limits count in fixed windows: a test that fills one must not straddle two. If the current window
 * ends within 30 s, wait for the next one.
 */
async function freshSignInWindow(): Promise<void> {
  const windowMs = SIGN_IN_LIMITS.windowSeconds * 1000;
  const left = windowMs - (Date.now() % windowMs);
  if (left < 30_000) await new Promise((resolve) => setTimeout(resolve, left + 50));
}

describe('signing in', () => {
  it('sets an HttpOnly SameSite=Lax session cookie on /dashboard and sends the user where they were going', async () => {
    const { email } = await signedIn(t, tenant, 'viewer');
    const browser = new Browser(t);
    const login = await browser.get('/dashboard/login?next=%2Fdashboard%2Fchecks');
    const answer = await browser.post('/dashboard/login', { _csrf: Browser.csrfOf(login), email, password: PASSWORD, next: '/dashboard/checks' });
    expect(answer.statusCode).toBe(303);
    expect(answer.headers.location).toBe('/dashboard/checks');
    const cookie = String(answer.headers['set-cookie']);
    expect(cookie).toMatch(/kyx_session=[A-Za-z0-9_-]{43}; Max-Age=43200; Path=\/dashboard; HttpOnly; SameSite=Lax/);
    const stored = await t.context.storage.db.selectFrom('user_sessions').select('token_hash').execute();
    expect(stored.map((row) => row.token_hash)).not.toContain(browser.cookies.get('kyx_session'));
  });

  it('never sends the user to another site after signing in', async () => {
    const { email } = await signedIn(t, tenant, 'viewer');
    for (const next of ['https://evil.example/', '//evil.example/dashboard', '/dashboardx', '/api/v1/validate-key']) {
      const browser = new Browser(t);
      const answer = await browser.post('/dashboard/login', { _csrf: Browser.csrfOf(await browser.get('/dashboard/login')), email, password: PASSWORD, next });
      expect(answer.headers.location).toBe('/dashboard');
    }
  });

  it('answers a wrong password and an unknown email alike, with 401', async () => {
    const { email } = await signedIn(t, tenant, 'viewer');
    const wrong = await new Browser(t).signIn(email, 'wrong password here');
    const unknown = await new Browser(t).signIn('nobody@example.com');
    expect([wrong.statusCode, unknown.statusCode]).toEqual([401, 401]);
    expect(wrong.body).toContain('The email, the password or the authentication code is wrong.');
    expect(unknown.body).toContain('The email, the password or the authentication code is wrong.');
  });

  it('refuses a page that is not signed in: GET goes to the sign-in page, POST is 401', async () => {
    const browser = new Browser(t);
    const page = await browser.get('/dashboard/keys');
    expect(page.statusCode).toBe(303);
    expect(page.headers.location).toBe('/dashboard/login?next=%2Fdashboard%2Fkeys');
    const post = await browser.post('/dashboard/keys', { _csrf: 'x', environment: 'test' });
    expect(post.statusCode).toBe(401);
    expect(post.json()).toMatchObject({ code: 'unauthorized' });
  });

  it('limits failed attempts per account: past the limit even the right password is refused with 429 and Retry-After', async () => {
    const owner = await t.tenant();
    const { email } = await signedIn(t, owner, 'admin');
    const colleague = await signedIn(t, owner, 'analyst');
    await freshSignInWindow();
    let status = 0;
    for (let attempt = 1; attempt <= SIGN_IN_LIMITS.perAccount; attempt++) status = (await new Browser(t).signIn(email, 'wrong password here')).statusCode;
    expect(status).toBe(401);
    const limited = await new Browser(t).signIn(email);
    expect(limited.statusCode).toBe(429);
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    expect(limited.body).toContain('Too many sign-in attempts');
    // the account is what is being guessed at: its other users wait too, while their open sessions go on
    expect((await new Browser(t).signIn(colleague.email)).statusCode).toBe(429);
    expect((await colleague.browser.get('/dashboard')).statusCode).toBe(200);
  });

  it('limits failed attempts per address across accounts; successful sign-ins are not limited', async () => {
    const app = await createTestApp();
    try {
      const tenants = await Promise.all([app.tenant(), app.tenant(), app.tenant()]);
      const emails = await Promise.all(tenants.map(async (one) => (await signedIn(app, one, 'viewer')).email));
      const answers: number[] = [];
      const address = '192.0.2.7';
      await freshSignInWindow();
      for (let attempt = 0; attempt < SIGN_IN_LIMITS.perAddress; attempt++) {
        answers.push((await new Browser(app, address).signIn(emails[attempt % 3], 'wrong password here')).statusCode);
      }
      // no account saw as many attempts as its own limit; the address used up its allowance
      expect(SIGN_IN_LIMITS.perAddress / 3).toBeLessThan(SIGN_IN_LIMITS.perAccount);
      expect(answers.every((status) => status === 401)).toBe(true);
      expect((await new Browser(app, address).signIn(emails[0])).statusCode).toBe(429);
      expect((await new Browser(app, '192.0.2.8').signIn(emails[0])).statusCode).toBe(303);
      for (let attempt = 0; attempt < SIGN_IN_LIMITS.perAddress + 5; attempt++) {
        expect((await new Browser(app, '192.0.2.9').signIn(emails[1])).statusCode).toBe(303);
      }
    } finally {
      await app.close();
    }
  });
});

describe('sessions', () => {
  it('a new session on every sign-in; the session a browser held before is ended (no fixation)', async () => {
    const first = await signedIn(t, tenant, 'analyst');
    const before = first.browser.cookies.get('kyx_session')!;
    const copy = new Browser(t);
    copy.cookies.set('kyx_session', before);
    expect((await copy.get('/dashboard')).statusCode).toBe(200);
    expect((await first.browser.signIn(first.email)).statusCode).toBe(303);
    expect(first.browser.cookies.get('kyx_session')).not.toBe(before);
    expect((await copy.get('/dashboard')).statusCode).toBe(303);
    expect((await first.browser.get('/dashboard')).statusCode).toBe(200);
  });

  it('a session cookie planted before sign-in is not adopted', async () => {
    const { email } = await signedIn(t, tenant, 'viewer');
    const browser = new Browser(t);
    browser.cookies.set('kyx_session', 'planted-by-an-attacker-aaaaaaaaaaaaaaaaaaaaaaa');
    await browser.signIn(email);
    expect(browser.cookies.get('kyx_session')).not.toBe('planted-by-an-attacker-aaaaaaaaaaaaaaaaaaaaaaa');
  });

  it('signing out ends the session: the old cookie is refused afterwards', async () => {
    const { browser } = await signedIn(t, tenant, 'viewer');
    const token = browser.cookies.get('kyx_session')!;
    const out = await browser.submit('/dashboard', '/dashboard/logout', {});
    expect(out.statusCode).toBe(303);
    expect(browser.cookies.has('kyx_session')).toBe(false);
    const replay = new Browser(t);
    replay.cookies.set('kyx_session', token);
    expect((await replay.get('/dashboard')).statusCode).toBe(303);
  });

  it('signing out everywhere ends every session of the user, and only theirs', async () => {
    const { browser, email } = await signedIn(t, tenant, 'analyst');
    const laptop = new Browser(t);
    await laptop.signIn(email);
    const colleague = await signedIn(t, tenant, 'analyst');
    expect((await browser.submit('/dashboard', '/dashboard/logout/everywhere', {})).statusCode).toBe(303);
    expect((await laptop.get('/dashboard')).statusCode).toBe(303);
    expect((await colleague.browser.get('/dashboard')).statusCode).toBe(200);
  });

  it('an expired session is refused', async () => {
    const { browser, userId } = await signedIn(t, tenant, 'viewer');
    await t.context.storage.db.updateTable('user_sessions').set({ expires_at: new Date(Date.now() - 1000).toISOString() }).where('user_id', '=', userId).execute();
    expect((await browser.get('/dashboard')).statusCode).toBe(303);
  });
});

describe('CSRF and browser protections', () => {
  it('refuses a state change without the session\'s CSRF token, or with another session\'s, with 403 and nothing done', async () => {
    const admin = await signedIn(t, tenant, 'admin');
    const other = await signedIn(t, tenant, 'admin');
    const keysBefore = (await t.context.services.accounts.listKeys(tenant.accountId)).length;
    const missing = await admin.browser.post('/dashboard/keys', { environment: 'test' });
    const empty = await admin.browser.post('/dashboard/keys', { _csrf: '', environment: 'test' });
    const foreign = await admin.browser.post('/dashboard/keys', { _csrf: Browser.csrfOf(await other.browser.get('/dashboard')), environment: 'test' });
    for (const answer of [missing, empty, foreign]) {
      expect(answer.statusCode).toBe(403);
      expect(answer.json()).toMatchObject({ code: 'forbidden' });
    }
    expect((await t.context.services.accounts.listKeys(tenant.accountId)).length).toBe(keysBefore);
  });

  it('refuses the sign-in form without the token its page set, and a state change from another site', async () => {
    const { email, browser } = await signedIn(t, tenant, 'admin');
    const fresh = new Browser(t);
    expect((await fresh.post('/dashboard/login', { _csrf: 'guess', email, password: PASSWORD })).statusCode).toBe(403);
    const csrf = Browser.csrfOf(await browser.get('/dashboard'));
    const crossSite = await browser.post('/dashboard/keys', { _csrf: csrf, environment: 'test' }, { origin: 'https://evil.example' });
    expect(crossSite.statusCode).toBe(403);
    const sameSite = await browser.post('/dashboard/keys', { _csrf: csrf, environment: 'test' }, { origin: 'http://localhost:80' });
    expect(sameSite.statusCode).toBe(200);
  });

  it('sends a strict Content-Security-Policy and no-store on every page, and serves its assets itself', async () => {
    const { browser } = await signedIn(t, tenant, 'viewer');
    for (const url of ['/dashboard/login', '/dashboard', '/dashboard/checks']) {
      const page = await browser.get(url);
      expect(page.headers['content-security-policy']).toContain("default-src 'none'");
      expect(page.headers['content-security-policy']).toContain("script-src 'self'");
      expect(page.headers['content-security-policy']).toContain("frame-ancestors 'none'");
      expect(page.headers['x-frame-options']).toBe('DENY');
      expect(page.headers['cache-control']).toBe('no-store');
      expect(page.body).not.toMatch(/https?:\/\/(?!kyx\.test)/);
      expect(page.body).not.toMatch(/<script>|\sstyle="|\son[a-z]+="/);
    }
    const css = await browser.get('/dashboard/assets/app.css');
    expect(css.statusCode).toBe(200);
    expect(css.headers['content-type']).toContain('text/css');
    expect((await browser.get('/dashboard/assets/other.js')).statusCode).toBe(400);
  });

  it('escapes what users typed wherever a page shows it', async () => {
    const admin = await signedIn(t, tenant, 'admin');
    const answer = await admin.browser.submit('/dashboard/escrows', '/dashboard/escrows', {
      amount: '10.00',
      currency: 'USD',
      buyer: '<script>alert(1)</script>',
      seller: '"><img src=x onerror=alert(1)>',
    });
    expect(answer.statusCode).toBe(303);
    const page = await admin.browser.get(answer.headers.location as string);
    expect(page.body).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(page.body).toContain('&quot;&gt;&lt;img src=x onerror=alert(1)&gt;');
    expect(page.body).not.toContain('<img src=x');
  });
});

describe('disabled users', () => {
  it('are signed out at once and cannot sign in again', async () => {
    const admin = await signedIn(t, tenant, 'admin');
    const analyst = await signedIn(t, tenant, 'analyst');
    const disabled = await admin.browser.submit('/dashboard/users', `/dashboard/users/${analyst.userId}/disable`, {});
    expect(disabled.statusCode).toBe(200);
    expect((await analyst.browser.get('/dashboard')).statusCode).toBe(303);
    expect((await new Browser(t).signIn(analyst.email)).statusCode).toBe(401);
  });
});

describe('the TOTP second factor', () => {
  it('is set up with a first code; then sign-in needs a current code, each code works once, and turning it off needs one', async () => {
    const { TOTP, Secret } = await import('otpauth');
    const { browser, email, userId } = await signedIn(t, tenant, 'viewer');
    const started = await browser.submit('/dashboard/security', '/dashboard/security/two-factor/start', {});
    const secret = /data-testid="totp-secret">([A-Z2-7]+)</.exec(started.body)![1];
    expect(started.body).toContain(`otpauth://totp/kyx:${encodeURIComponent(email)}?`);
    const totp = new TOTP({ secret: Secret.fromBase32(secret) });
    const wrong = await browser.submit('/dashboard/security', '/dashboard/security/two-factor/confirm', { code: '000000' === totp.generate() ? '111111' : '000000' });
    expect(wrong.statusCode).toBe(400);
    // The codes are taken a 30-second step apart, so neither falls out of the one step of drift allowed if a step
    // ends while a request is on its way: this step's code turns the factor on, the next step's signs in.
    expect((await browser.submit('/dashboard/security', '/dashboard/security/two-factor/confirm', { code: totp.generate() })).statusCode).toBe(200);
    expect((await browser.get('/dashboard/security')).body).toMatch(/Second factor: <strong>on<\/strong>/);

    expect((await new Browser(t).signIn(email)).statusCode).toBe(401);
    const current = totp.generate({ timestamp: Date.now() + 30_000 });
    const withCode = await new Browser(t).submit('/dashboard/login', '/dashboard/login', { email, password: PASSWORD, code: current });
    expect(withCode.statusCode).toBe(303);
    const replayed = await new Browser(t).submit('/dashboard/login', '/dashboard/login', { email, password: PASSWORD, code: current });
    expect(replayed.statusCode).toBe(401);
    const row = await t.context.storage.db.selectFrom('users').select(['totp_enabled_at', 'totp_last_step']).where('id', '=', userId).executeTakeFirstOrThrow();
    expect(row.totp_enabled_at).not.toBeNull();
    expect(row.totp_last_step).toBe(Math.floor(Date.now() / 30_000) + totp.validate({ token: current, window: 2 })!);

    expect((await browser.submit('/dashboard/security', '/dashboard/security/two-factor/disable', { code: '123' })).statusCode).toBe(400);
    const audit = (await t.context.services.users.auditLog(tenant.accountId, { limit: 500 })).filter((entry) => entry.target === userId).map((entry) => entry.action);
    expect(audit).toContain('user.two_factor_enabled');
  });
});
