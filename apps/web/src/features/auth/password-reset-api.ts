import {
  type ForgotPasswordRequest,
  MessageResponse,
  type ResetPasswordRequest,
} from '@portfolio/types';

import { http } from '../../lib/http';

export function requestPasswordReset(input: ForgotPasswordRequest): Promise<MessageResponse> {
  return http.post('/api/auth/forgot-password', input, MessageResponse);
}

export function resetPassword(input: ResetPasswordRequest): Promise<MessageResponse> {
  return http.post('/api/auth/reset-password', input, MessageResponse);
}
