// A browser's side of the dashboard over fastify.inject: its cookies, the CSRF token of its pages, its forms.
import type { LightMyRequestResponse } from 'fastify';
import type { Role } from '../../src/users/tables.ts';
import type { Tenant, TestApp } from './app.ts';

export const PASSWORD = 'correct horse battery staple';

let serial = 0;

export class Browser {
  readonly cookies = new Map<string, string>();
  /** Each browser comes from an address of its own unless told otherwise (sign-in is limited per address). */
  constructor(
    readonly t: Pick<TestApp, 'app'>,
    readonly address = `10.${(serial >> 8) & 255}.${serial++ & 255}.${1 + Math.floor(Math.random() * 250)}`,
  ) {}

  get cookieHeader(): string {
    return [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
  }

  private keep(response: LightMyRequestResponse): LightMyRequestResponse {
    for (const cookie of response.cookies as { name: string; value: string; maxAge?: number; expires?: Date }[]) {
      const expired = cookie.maxAge === 0 || (cookie.expires !== undefined && cookie.expires.getTime() < Date.now()) || cookie.value === '';
      if (expired) this.cookies.delete(cookie.name);
      else this.cookies.set(cookie.name, cookie.value);
    }
    return response;
  }

  async get(url: string, headers: Record<string, string> = {}): Promise<LightMyRequestResponse> {
    return this.keep(await this.t.app.inject({ method: 'GET', url, remoteAddress: this.address, headers: { cookie: this.cookieHeader, ...headers } }));
  }

  /** Posts a form as a browser would: urlencoded, with the cookies it holds. */
  async post(url: string, form: Record<string, string | string[]>, headers: Record<string, string> = {}): Promise<LightMyRequestResponse> {
    const body = new URLSearchParams();
    for (const [name, value] of Object.entries(form)) for (const one of [value].flat()) body.append(name, one);
    return this.keep(
      await this.t.app.inject({
        method: 'POST',
        url,
        remoteAddress: this.address,
        headers: { cookie: this.cookieHeader, 'content-type': 'application/x-www-form-urlencoded', ...headers },
        payload: body.toString(),
      }),
    );
  }

  /** The CSRF token the page's forms carry. */
  static csrfOf(page: LightMyRequestResponse): string {
    const token = /name="_csrf" value="([^"]+)"/.exec(page.body)?.[1];
    if (!token) throw new Error(`no CSRF field in ${page.statusCode} ${page.body.slice(0, 200)}`);
    return token;
  }

  /** Loads `pageUrl`, then submits `form` to `action` with the page's CSRF token. */
  async submit(pageUrl: string, action: string, form: Record<string, string | string[]>): Promise<LightMyRequestResponse> {
    return this.post(action, { _csrf: Browser.csrfOf(await this.get(pageUrl)), ...form });
  }

  async signIn(email: string, password = PASSWORD): Promise<LightMyRequestResponse> {
    return this.submit('/dashboard/login', '/dashboard/login', { email, password });
  }
}

/** A user of the tenant's account with a password set, signed in in a browser of its own. */
export async function signedIn(t: TestApp, tenant: Tenant, role: Role): Promise<{ browser: Browser; email: string; userId: string }> {
  const email = `${role}-${serial++}-${tenant.accountId.slice(-6).toLowerCase()}@example.com`;
  const { user, setupUrl } = await t.context.services.users.invite(tenant.accountId, { email, role });
  await t.context.services.users.completeSetup(setupUrl.split('/').at(-1)!, PASSWORD);
  const browser = new Browser(t);
  const answer = await browser.signIn(email);
  if (answer.statusCode !== 303) throw new Error(`sign-in failed: ${answer.statusCode} ${answer.body.slice(0, 300)}`);
  return { browser, email, userId: user.id };
}
