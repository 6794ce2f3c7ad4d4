import type { FastifyRequest } from 'fastify';

/**
 * The path a request was routed by. find-my-way routes on the origin-form path: it drops the scheme and host of an
 * absolute-form target (`http://x/api/v1/…`), cuts the query and decodes percent-escapes (`/%61pi/…` is `/api/…`),
 * so a decision taken on the raw `request.url` can be walked around by writing the same route differently. A matched
 * request is judged by its route pattern; an unmatched one (a 404) by its path decoded as the router would.
 */
export function routedPath(request: FastifyRequest): string {
  return request.routeOptions.url ?? originPath(request.url);
}

/**
 * The decoded path of a request target, without scheme, host, query or fragment (the raw path if it cannot be
 * decoded). Like the router, it keeps the escapes of `/`, `?`, `#` and `%` as they are, so two targets that route
 * differently never decode to the same path.
 */
export function originPath(target: string): string {
  let path = target;
  if (path.charCodeAt(0) !== 47 /* '/' */) {
    const scheme = /^https?:\/\/[^/?#]*/i.exec(path);
    if (scheme) path = path.slice(scheme[0].length);
    if (path.charCodeAt(0) !== 47) path = `/${path}`;
  }
  const end = path.search(/[?#]/);
  if (end !== -1) path = path.slice(0, end);
  if (!path.includes('%')) return path;
  try {
    return decodeURIComponent(path.replace(/%(2f|3f|23|25)/gi, '%25$1'));
  } catch {
    return path;
  }
}

/** The target in origin form (decoded path and the query as sent): the same request however its target was written. */
export function originTarget(target: string): string {
  const query = target.indexOf('?');
  return query === -1 ? originPath(target) : originPath(target) + target.slice(query);
}
