/** A server with its bot and outbox running against a local fake Bot API, for the bot's tests. */
import type { AppConfig } from '../../src/server/platform/config/config';
import { FAKE_TOKEN, type FakeBotApi } from './fake-bot-api';
import { OPERATOR, createLifecycleApp } from './lifecycle';
import type { TestApp } from './test-app';

/**
 * The server started on the real clock with its jobs (the outbox worker, the bot's long polling),
 * its Bot API `api`, its operators' chat `operatorChat` and OPERATOR in OPERATOR_IDS.
 */
export async function startBotApp(
  api: FakeBotApi,
  operatorChat: number,
  overrides: Partial<AppConfig> = {},
): Promise<TestApp> {
  const t = await createLifecycleApp(
    {
      botToken: FAKE_TOKEN,
      telegramApiRoot: api.url,
      operatorChatId: operatorChat,
      operatorIds: [OPERATOR.id],
      ...overrides,
    },
    { realClock: true, jobs: true },
  );
  await t.app.ready();
  return t;
}
