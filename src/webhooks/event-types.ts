/** Event kinds a subscription can receive (interface document, section 6). */
export const EVENT_TYPES = ['nav.published', 'report.distributed', 'proposal.approved', 'proposal.rejected'] as const;
export type EventType = (typeof EVENT_TYPES)[number];

/** Sent only by POST /webhooks/{id}/test, to that one subscription. */
export const TEST_EVENT_TYPE = 'webhook.test';
