/**
 * The set-up most integration files share: the app wired to the test broker (`testApp`) and real
 * groups made by Kafka's own Java clients (`startFixtures`), started in `beforeAll` and stopped in
 * `afterAll`. The handle stands for the file's `TestApp` from the moment `beforeAll` has run.
 */

import { afterAll, beforeAll } from 'vitest';
import {
  type GroupSpec,
  type RunningFixtures,
  startFixtures,
  type TopicSpec,
} from '../broker-harness/fixtures.js';
import { type TestApp, testApp } from './app.js';

export interface AppWithGroupsSetup {
  /** The app's environment, over testApp's defaults (AUTH=none, no rate limit). */
  env?: Record<string, string>;
  topics?: TopicSpec[];
  /** The groups; a function when they depend on the broker (`hasGroupType`), asked in beforeAll. */
  groups: GroupSpec[] | (() => GroupSpec[]);
  /** Until the fixtures say ALL READY (startFixtures' default otherwise). */
  readyTimeoutMs?: number;
  /** beforeAll's timeout (the project's hookTimeout otherwise). */
  timeoutMs?: number;
  /** More set-up once the app and the groups are up. */
  afterStart?: (t: TestApp) => Promise<void> | void;
}

export type AppWithGroups = TestApp & { readonly fixtures: RunningFixtures };

export function appWithGroups(setup: AppWithGroupsSetup): AppWithGroups {
  let app: TestApp | undefined;
  let fixtures: RunningFixtures | undefined;
  beforeAll(async () => {
    app = await testApp(setup.env);
    fixtures = await startFixtures({
      bootstrap: app.bootstrap,
      groups: typeof setup.groups === 'function' ? setup.groups() : setup.groups,
      ...(setup.topics && { topics: setup.topics }),
      ...(setup.readyTimeoutMs !== undefined && { readyTimeoutMs: setup.readyTimeoutMs }),
    });
    await setup.afterStart?.(app);
  }, setup.timeoutMs);
  afterAll(async () => {
    await fixtures?.stop();
    await app?.close();
  });

  const started = (): TestApp => {
    if (!app) throw new Error('appWithGroups: the app starts in beforeAll');
    return app;
  };
  return {
    get app() {
      return started().app;
    },
    get service() {
      return started().service;
    },
    get checker() {
      return started().checker;
    },
    get bootstrap() {
      return started().bootstrap;
    },
    get fixtures() {
      if (!fixtures) throw new Error('appWithGroups: the groups start in beforeAll');
      return fixtures;
    },
    get: <T>(path: string, template: string) => started().get<T>(path, template),
    close: () => started().close(),
  };
}
