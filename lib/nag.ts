/**
 * Accepting a cdk-nag (AwsSolutions) finding. cdk-nag 3 reads CDK's own acknowledgements
 * (`Validations.of(construct).acknowledge()`, which replaced v2's `NagSuppressions`); an
 * acknowledgement covers the construct and everything below it.
 *
 * Every acknowledgement sits next to the resource it is about, and says why. All of them are listed,
 * with their reasons, in docs/infrastructure.md.
 */
import { Validations } from 'aws-cdk-lib';
import type { IConstruct } from 'constructs';

/** Rule namespace of the AwsSolutions pack in CDK's validation report. */
const NAMESPACE = 'AwsSolutions';

/** A reason must say something specific, not "not needed". */
const MIN_REASON_LENGTH = 40;

/**
 * @param rule rule id with its finding, as cdk-nag prints it without the namespace:
 *   `AwsSolutions-APIG4`, `AwsSolutions-IAM5[Resource::*]`
 */
export function acceptNagFinding(construct: IConstruct, rule: string, reason: string): void {
  if (!rule.startsWith(`${NAMESPACE}-`)) throw new Error(`Not an ${NAMESPACE} rule: ${rule}`);
  if (reason.trim().length < MIN_REASON_LENGTH) {
    throw new Error(`The reason for accepting ${rule} on ${construct.node.path} is too short: "${reason}"`);
  }
  Validations.of(construct).acknowledge({ id: `${NAMESPACE}::${rule}`, reason });
}
