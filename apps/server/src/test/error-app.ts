import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

import express, { type Express } from 'express';

import type { ApiError } from '@portfolio/types';

import { errorHandler } from '../lib/errors.js';

export interface ErrorApp {
  get(path: string): Promise<{ status: number; headers: Headers; body: ApiError }>;
  close(): Promise<void>;
}

/**
 * A bare Express app whose routes (added by `addRoutes`) throw, answered by the real
 * errorHandler over HTTP on 127.0.0.1: for testing what clients see of each kind of error.
 */
export async function startErrorApp(addRoutes: (app: Express) => void): Promise<ErrorApp> {
  const app = express();
  addRoutes(app);
  app.use(errorHandler);
  const server = createServer(app);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    async get(path) {
      const response = await fetch(baseUrl + path);
      return {
        status: response.status,
        headers: response.headers,
        body: (await response.json()) as ApiError,
      };
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
