import type { FastifyReply } from 'fastify';
import type { Session } from '../users/service.ts';
import { type Permission, may } from './access.ts';
import { Html, html } from '../http/html.ts';

const NAVIGATION: { path: string; label: string; permission: Permission }[] = [
  { path: '/dashboard', label: 'Overview', permission: 'read' },
  { path: '/dashboard/checks', label: 'Checks', permission: 'read' },
  { path: '/dashboard/reviews', label: 'Review queue', permission: 'read' },
  { path: '/dashboard/workflows', label: 'Workflows', permission: 'read' },
  { path: '/dashboard/kya', label: 'KYA', permission: 'read' },
  { path: '/dashboard/lists', label: 'AML lists', permission: 'read' },
  { path: '/dashboard/escrows', label: 'Escrow', permission: 'read' },
  { path: '/dashboard/keys', label: 'API keys', permission: 'read' },
  { path: '/dashboard/users', label: 'Users', permission: 'administer' },
  { path: '/dashboard/webhooks', label: 'Webhooks', permission: 'administer' },
  { path: '/dashboard/oauth', label: 'OAuth apps', permission: 'administer' },
  { path: '/dashboard/audit', label: 'Audit log', permission: 'administer' },
  { path: '/dashboard/security', label: 'Security', permission: 'read' },
];

export interface PageOptions {
  title: string;
  /** The signed-in user's session; absent on the sign-in and set-up pages. */
  session?: Session;
  /** The navigation entry to mark as current. */
  section?: string;
  /** A message above the content: what just happened, or what went wrong. */
  flash?: { kind: 'ok' | 'error'; text: string };
  body: Html;
}

/** The hidden field every state-changing form carries. */
export function csrfField(token: string): Html {
  return html`<input type="hidden" name="_csrf" value="${token}">`;
}

export function page({ title, session, section, flash, body }: PageOptions): Html {
  const nav = session
    ? html`<nav aria-label="Main"><ul>${NAVIGATION.filter((entry) => may(session.user.role, entry.permission)).map(
        (entry) => html`<li><a href="${entry.path}"${entry.path === section ? html` aria-current="page"` : ''}>${entry.label}</a></li>`,
      )}</ul></nav>
      <form class="signout" method="post" action="/dashboard/logout">${csrfField(session.csrfToken)}
        <span>${session.user.email} · ${session.user.role}</span>
        <button type="submit">Sign out</button>
        <button type="submit" formaction="/dashboard/logout/everywhere" class="secondary">Sign out everywhere</button>
      </form>`
    : '';
  return html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title} · kyx</title>
<link rel="stylesheet" href="/dashboard/assets/app.css">
<script src="/dashboard/assets/app.js" defer></script>
</head>
<body>
<a class="skip" href="#main">Skip to content</a>
<header><a class="brand" href="/dashboard">kyx</a>${nav}</header>
<main id="main" tabindex="-1">
<h1>${title}</h1>
${flash ? html`<p class="flash flash-${flash.kind}" role="${flash.kind === 'error' ? 'alert' : 'status'}">${flash.text}</p>` : ''}
${body}
</main>
</body>
</html>`;
}

export function sendPage(reply: FastifyReply, options: PageOptions, status = 200): FastifyReply {
  return reply.code(status).type('text/html; charset=utf-8').send(page(options).text);
}

/** 404 for an id this account does not have, another account's included. */
export function sendNotFound(reply: FastifyReply, session: Session, what: string): FastifyReply {
  return sendPage(reply, { title: 'Not found', session, body: html`<p>No ${what} with this id in this account.</p>` }, 404);
}
