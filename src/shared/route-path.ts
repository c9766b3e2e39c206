/**
 * A route's path, written once: its pattern for the server's router (`/api/orders/:id/cancel`)
 * and, called, the path the client requests with each `:parameter` filled in and escaped.
 */

/** The values of a pattern's `:parameters`, in the order they appear. */
type ParamsOf<P extends string> = P extends `${string}:${string}/${infer Rest}`
  ? [string | number, ...ParamsOf<Rest>]
  : P extends `${string}:${string}`
    ? [string | number]
    : [];

export type RoutePath<P extends string = string> = ((...values: ParamsOf<P>) => string) & {
  readonly pattern: P;
};

export function routePath<const P extends string>(pattern: P): RoutePath<P> {
  const fill = (...values: ParamsOf<P>): string => {
    let next = 0;
    return pattern.replace(/:[A-Za-z]+/g, () => encodeURIComponent(String(values[next++])));
  };
  return Object.assign(fill, { pattern });
}
