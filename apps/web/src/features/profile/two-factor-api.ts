import { MessageResponse } from '@portfolio/types';
import {
  type TwoFactorDisableRequest,
  TwoFactorEnableResponse,
  TwoFactorSetupResponse,
  TwoFactorStatus,
} from '@portfolio/types/two-factor';

import { http } from '../../lib/http';

/** The signed-in user's two-factor sign-in. */
export function getTwoFactorStatus(signal?: AbortSignal): Promise<TwoFactorStatus> {
  return http.get('/api/me/2fa', TwoFactorStatus, signal);
}

export function beginTwoFactorSetup(): Promise<TwoFactorSetupResponse> {
  return http.post('/api/me/2fa/setup', {}, TwoFactorSetupResponse);
}

export function enableTwoFactor(code: string): Promise<TwoFactorEnableResponse> {
  return http.post('/api/me/2fa/enable', { code }, TwoFactorEnableResponse);
}

export function disableTwoFactor(proof: TwoFactorDisableRequest): Promise<MessageResponse> {
  return http.post('/api/me/2fa/disable', proof, MessageResponse);
}
