/**
 * The app's start-up configuration (`AppConfigResponse`) as the server puts it into index.html
 * (so that the app waits for no `GET /api/app-config` before its first render), and as
 * the app reads it back: one element id, one way to write it, one schema to read it.
 */
import * as v from 'valibot';
import type { AppConfigResponse } from './api';

/** The id of the `<script type="application/json">` element that carries the configuration. */
export const APP_CONFIG_ELEMENT_ID = 'app-config';

/** `AppConfigResponse`, checked: what index.html carries and what `GET /api/app-config` answers. */
export const AppConfigSchema = v.object({
  demo: v.boolean(),
  supportUrl: v.string(),
}) satisfies v.GenericSchema<AppConfigResponse>;

/** The configuration, or undefined when `value` is not one. */
export function parseAppConfig(value: unknown): AppConfigResponse | undefined {
  const result = v.safeParse(AppConfigSchema, value);
  return result.success ? result.output : undefined;
}

/**
 * The element the server puts into index.html. Data, not a script (so any Content Security Policy
 * lets it be), and every `<` of the JSON escaped as `\u003c`, so no value can close the element
 * (`</script>`) or open a comment; JSON.parse reads the escape back as `<`.
 */
export function appConfigElement(config: AppConfigResponse): string {
  const json = JSON.stringify(config).replace(/</g, '\\u003c');
  return `<script type="application/json" id="${APP_CONFIG_ELEMENT_ID}">${json}</script>`;
}

/**
 * The configuration index.html carries, or undefined when it carries none or a broken one (the
 * Vite dev server serves index.html as it is: the app then asks `GET /api/app-config`).
 */
export function inlineAppConfig(document: {
  getElementById(id: string): { readonly textContent: string | null } | null;
}): AppConfigResponse | undefined {
  const text = document.getElementById(APP_CONFIG_ELEMENT_ID)?.textContent;
  if (text === undefined || text === null) return undefined;
  try {
    return parseAppConfig(JSON.parse(text));
  } catch {
    return undefined;
  }
}
