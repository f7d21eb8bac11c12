// The catalogue of every problem type the service answers with: the HTTP layer's and each feature's
// (their data-only problems.ts). A feature with problem types of its own adds its list here.
import { collectProblems, HTTP_PROBLEMS, type ProblemSlug, type ProblemType } from './http/problem-types.js';
import { GUARD_PROBLEMS } from './api/guard-problems.js';
import { COMMUNITY_PROBLEMS } from './community/problems.js';
import { MODERATION_PROBLEMS } from './moderation/problems.js';
import { ACCOUNT_PROBLEMS } from './accounts/problems.js';
import { PARTNER_PROBLEMS } from './partners/problems.js';
import { OBSERVE_PROBLEMS } from './observe/problems.js';
import { BILLING_PROBLEMS } from './billing/problems.js';

/** Declared with every slug of ProblemCatalogue: a feature's list missing here does not compile. */
export const PROBLEM_TYPES: Readonly<Record<ProblemSlug, ProblemType>> = collectProblems(HTTP_PROBLEMS, GUARD_PROBLEMS, COMMUNITY_PROBLEMS, MODERATION_PROBLEMS, ACCOUNT_PROBLEMS, PARTNER_PROBLEMS, OBSERVE_PROBLEMS, BILLING_PROBLEMS);
