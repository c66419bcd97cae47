import {
  type MailPreferencesRequest,
  type ChangePasswordRequest,
  MessageResponse,
  Profile,
  type UpdateEmailRequest,
} from '@portfolio/types';

import { http } from '../../lib/http';

export function getProfile(signal?: AbortSignal): Promise<Profile> {
  return http.get('/api/user/profile', Profile, signal);
}

export function setMailPreferences(input: MailPreferencesRequest): Promise<MessageResponse> {
  return http.post('/api/user/mail-preferences', input, MessageResponse);
}

export function updateEmail(input: UpdateEmailRequest): Promise<MessageResponse> {
  return http.post('/api/user/update-email', input, MessageResponse);
}

export function changePassword(input: ChangePasswordRequest): Promise<MessageResponse> {
  return http.post('/api/user/change-password', input, MessageResponse);
}
