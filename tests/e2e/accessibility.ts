/**
 * The accessibility check every screen of the browser tests passes: axe-core, run in the page each
 * time a test reaches or photographs a screen (the harness calls it from `onScreen` and
 * `screenshot`), fails the test on any finding a screen reader or a low-vision customer would be
 * stopped by (impact serious or critical), named by rule, element and what to fix.
 */
import fs from 'node:fs';
import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';
import type { AxeResults, ImpactValue, RunOptions } from 'axe-core';

/** axe-core's browser build, read once per test file and evaluated once per document. */
const AXE_SOURCE = fs.readFileSync(
  createRequire(import.meta.url).resolve('axe-core/axe.min.js'),
  'utf8',
);

/** WCAG 2.1 A and AA, and axe's best practices (positive tabindex, nested controls, …). */
const RULES: RunOptions = {
  runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'] },
  resultTypes: ['violations'],
};

/** The impacts that fail a test: what stops someone, not what merely slows them. */
const FAILING: readonly ImpactValue[] = ['serious', 'critical'];

/**
 * Findings left to the UI kit: a rule, the elements it is waived for (a CSS selector, matched
 * by the element or an ancestor; the kit's class names are fixed for its pinned version), and
 * why it cannot be fixed from the app.
 */
const KIT_WAIVERS: readonly {
  readonly rule: string;
  readonly within: string;
  readonly why: string;
}[] = [
  {
    rule: 'definition-list',
    within: '.tgui-9c3dbc0ef84585d4',
    why:
      "The kit's Placeholder writes its header as a <dt> in a <dl> even with no description to " +
      'be its <dd>: a title alone is a whole message, and a screen reader reads it as text.',
  },
];

/** One element a rule found, as the failure message prints it. */
interface Finding {
  readonly rule: string;
  readonly impact: string;
  readonly help: string;
  readonly target: string;
  /** The element's markup, cut short. */
  readonly html: string;
  readonly summary: string;
}

interface AxeWindow {
  axe?: { run: (context: Document, options: RunOptions) => Promise<AxeResults> };
  /** The markup last checked: a screen reached and then photographed unchanged is checked once. */
  __axeChecked?: string;
}

/** Runs axe on the page as it is now; the findings of impact serious or critical, waivers applied. */
export async function accessibilityFindings(page: Page): Promise<readonly Finding[]> {
  const loaded = await page.evaluate(() => (window as AxeWindow).axe !== undefined);
  // Evaluated rather than added as a <script>, which the server's content security policy refuses.
  if (!loaded) await page.evaluate(AXE_SOURCE);
  return page.evaluate(
    async ({ rules, failing, waivers }) => {
      const w = window as AxeWindow;
      // A button fading in is measured at its final colour: the finite animations end first
      // (a spinner's never does), within a second.
      const settling = document
        .getAnimations()
        .filter((a) => a.effect?.getComputedTiming().endTime !== Infinity)
        .map((a) => a.finished.catch(() => undefined));
      await Promise.race([
        Promise.all(settling),
        new Promise((resolve) => setTimeout(resolve, 1000)),
      ]);
      const markup = document.documentElement.outerHTML;
      if (w.__axeChecked === markup || w.axe === undefined) return [];
      const results = await w.axe.run(document, rules);
      w.__axeChecked = markup;
      const waived = (rule: string, target: string) =>
        waivers.some((waiver) => {
          if (waiver.rule !== rule) return false;
          const element = document.querySelector(target);
          return element?.closest(waiver.within) != null;
        });
      return results.violations
        .filter((violation) => failing.includes(violation.impact ?? 'minor'))
        .flatMap((violation) =>
          violation.nodes.flatMap((node) => {
            const target = node.target.join(' ');
            return waived(violation.id, target)
              ? []
              : [
                  {
                    rule: violation.id,
                    impact: node.impact ?? violation.impact ?? '',
                    help: violation.help,
                    target,
                    html: node.html.slice(0, 240),
                    summary: (node.failureSummary ?? '').replace(/\s*\n\s*/g, ' '),
                  },
                ];
          }),
        );
    },
    { rules: RULES, failing: FAILING, waivers: KIT_WAIVERS },
  );
}

/** Fails with every serious or critical finding on the screen `name` the page shows. */
export async function expectAccessible(page: Page, name: string): Promise<void> {
  const findings = await accessibilityFindings(page);
  if (findings.length === 0) return;
  const lines = findings.map(
    (f) =>
      `  - ${f.rule} (${f.impact}): ${f.help}\n    at ${f.target}: ${f.html}\n    ${f.summary}`,
  );
  throw new Error(
    `${name}: ${findings.length} accessibility finding(s) of impact serious or critical ` +
      `(${page.url()}):\n${lines.join('\n')}`,
  );
}
