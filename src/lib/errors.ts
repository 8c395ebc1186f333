// One table of stable error codes. Every error the API returns is an RFC 9457 problem document
// carrying one of these codes; docs/errors.md documents each (a test keeps the two in step).
import type { Static } from 'typebox';
import type { FieldError, Problem as ProblemSchema } from './schemas.ts';

export const ERROR_CODES = {
  VALIDATION_FAILED: { status: 400, title: 'The request is invalid' },
  MALFORMED_JSON: { status: 400, title: 'The body is not valid JSON' },
  BODY_TOO_DEEP: { status: 400, title: 'The body nests too deeply' },
  BAD_REQUEST: { status: 400, title: 'Bad request' },
  BAD_URL: { status: 400, title: 'The URL is not valid' },
  DATA_ROW_INVALID: { status: 400, title: 'A row of the data cannot be loaded' },
  DATA_COLUMNS_MISMATCH: { status: 400, title: "The data's columns do not match the table" },
  UNAUTHENTICATED: { status: 401, title: 'Authentication required' },
  FORBIDDEN: { status: 403, title: 'Not allowed for your role' },
  ACCESS_ATTRIBUTE_MISSING: { status: 403, title: 'Your credentials lack an attribute this data requires' },
  NOT_FOUND: { status: 404, title: 'Not found' },
  DATA_TABLE_NOT_IN_MODEL: { status: 404, title: 'No cube of the model reads this table' },
  ROUTE_NOT_FOUND: { status: 404, title: 'No such route' },
  METHOD_NOT_ALLOWED: { status: 405, title: 'Method not allowed' },
  REQUEST_TIMEOUT: { status: 408, title: 'The request did not arrive in time' },
  CONFLICT: { status: 409, title: 'Conflict with the current state' },
  DATA_NOT_LOADED: { status: 409, title: 'The data this needs is not loaded yet' },
  DATA_MODEL_MISMATCH: { status: 409, title: "The warehouse's tables do not fit the model" },
  INSIGHT_NOT_IN_MODEL: { status: 409, title: 'The insight is not in the current model' },
  PAYLOAD_TOO_LARGE: { status: 413, title: 'The body is too large' },
  DATA_DECOMPRESSED_TOO_LARGE: { status: 413, title: 'The data is too large once decompressed' },
  DATA_TOO_MANY_ROWS: { status: 413, title: 'The data has too many rows for one load' },
  UNSUPPORTED_MEDIA_TYPE: { status: 415, title: 'Unsupported media type' },
  RATE_LIMITED: { status: 429, title: 'Too many requests' },
  HEADERS_TOO_LARGE: { status: 431, title: 'The request headers are too large' },
  UPSTREAM_FAILED: { status: 502, title: 'An upstream service failed' },
  SERVICE_UNAVAILABLE: { status: 503, title: 'Service unavailable' },
  INTERNAL: { status: 500, title: 'Internal server error' },
} as const satisfies Record<string, { status: number; title: string }>;

export type ErrorCode = keyof typeof ERROR_CODES;

export type { FieldError };

export class AppError extends Error {
  readonly status: number;
  constructor(
    readonly code: ErrorCode,
    readonly detail: string,
    readonly options: { errors?: FieldError[]; headers?: Record<string, string> } = {},
  ) {
    super(detail);
    this.status = ERROR_CODES[code].status;
  }
}

export const notFound = (what: string) => new AppError('NOT_FOUND', `${what} not found`);
/** A widget or subscription saved under a model that had the insight; the current one does not. */
export const insightNotInModel = (code: string, who: string) =>
  new AppError(
    'INSIGHT_NOT_IN_MODEL',
    `${who} uses the insight "${code}", which the current model does not define. Change its insight_code, or add the insight to the model.`,
  );
export const forbidden = (detail: string) => new AppError('FORBIDDEN', detail);
export const conflict = (detail: string) => new AppError('CONFLICT', detail);
/** A 400 that names one field of the body (or of the query, with path "/query/x"). */
export const invalidField = (path: string, message: string) =>
  new AppError('VALIDATION_FAILED', `${path.replace(/^\/(body|query|params)\//, '')}: ${message}`, {
    errors: [{ path: path.startsWith('/') ? path : `/body/${path}`, message }],
  });

/** The problem body (lib/schemas.ts `Problem`), its code one of the table's. */
export type Problem = Omit<Static<typeof ProblemSchema>, 'code'> & { code: ErrorCode };

export function toProblem(code: ErrorCode, detail: string, errors?: FieldError[]): Problem {
  const { status, title } = ERROR_CODES[code];
  return {
    type: `https://insights.dev/problems/${code.toLowerCase().replace(/_/g, '-')}`,
    title,
    status,
    detail,
    code,
    ...(errors?.length ? { errors } : {}),
  };
}
