// The OAuth engine's door: what the pages and the app may use of it.
export type { AnswerRefused, ConsentAnswer, ConsentQuestion, LoggedInMember, MemberPages } from './member-pages.ts';
export { oauthServer, type OAuthOptions } from './plugin.ts';
export { accessOf } from './scope.ts';
export { revokeConnection } from './tokens.ts';
