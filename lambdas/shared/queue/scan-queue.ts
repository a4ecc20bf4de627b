/** The scan queue: the message format and the two things the API needs from SQS. */
import { GetQueueAttributesCommand, SendMessageCommand, type SQSClient } from '@aws-sdk/client-sqs';
// zod/mini: this module is in the bundles of the API functions that queue scans (≈ 70 KB less).
import * as z from 'zod/mini';

export const ScanMessage = z.strictObject({
  job_id: z.uuid(),
  source: z.enum(['registry', 'tarball']),
  name: z.string(),
  version: z.string(),
  registry: z.string(),
  s3_key: z.optional(z.string()),
});
export type ScanMessage = z.infer<typeof ScanMessage>;

export class ScanQueue {
  constructor(
    private readonly sqs: SQSClient,
    private readonly queueUrl: string,
  ) {}

  async send(message: ScanMessage): Promise<void> {
    await this.sqs.send(
      new SendMessageCommand({ QueueUrl: this.queueUrl, MessageBody: JSON.stringify(message) }),
    );
  }

  /** Messages waiting or in flight; 0 when the queue cannot be asked (the estimate degrades, nothing fails). */
  async depth(): Promise<number> {
    try {
      const out = await this.sqs.send(
        new GetQueueAttributesCommand({
          QueueUrl: this.queueUrl,
          AttributeNames: ['ApproximateNumberOfMessages', 'ApproximateNumberOfMessagesNotVisible'],
        }),
      );
      const attrs = out.Attributes ?? {};
      return (
        Number(attrs.ApproximateNumberOfMessages ?? 0) +
        Number(attrs.ApproximateNumberOfMessagesNotVisible ?? 0)
      );
    } catch {
      return 0;
    }
  }
}
