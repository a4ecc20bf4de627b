/**
 * Reads a synthesized template the way API Gateway will see it: the full path of each resource
 * (from its PathPart and ParentId chain) and the function behind each route; and reads what each
 * function's role may do.
 */
import { Stack, type CfnElement } from 'aws-cdk-lib';
import { Match, type Template } from 'aws-cdk-lib/assertions';
import type { IFunction } from 'aws-cdk-lib/aws-lambda';
import type { IConstruct } from 'constructs';

interface CfnResource {
  readonly Type: string;
  readonly Properties: Record<string, unknown>;
}

type Resources = Record<string, CfnResource>;

/** Full path (`/v1/packages/{name}`) of every AWS::ApiGateway::Resource, by logical id. */
export function apiResourcePaths(template: Template): Map<string, string> {
  const resources = template.findResources('AWS::ApiGateway::Resource') as Resources;
  const paths = new Map<string, string>();
  const pathOf = (id: string): string => {
    const known = paths.get(id);
    if (known !== undefined) return known;
    const resource = resources[id];
    if (!resource) throw new Error(`No API resource ${id}`);
    const parent = resource.Properties.ParentId as { Ref?: string };
    const parentPath = parent.Ref ? pathOf(parent.Ref) : ''; // else the API's root resource
    const path = `${parentPath}/${String(resource.Properties.PathPart)}`;
    paths.set(id, path);
    return path;
  };
  for (const id of Object.keys(resources)) pathOf(id);
  return paths;
}

/** Logical id of the API resource at `path` ('/' is the root and has none). */
export function apiResourceId(template: Template, path: string): string {
  for (const [id, resourcePath] of apiResourcePaths(template)) if (resourcePath === path) return id;
  throw new Error(`No API resource at ${path}`);
}

/** Logical id of the one Lambda function whose description is `description`. */
export function functionIdByDescription(template: Template, description: string): string {
  const ids = Object.keys(
    template.findResources('AWS::Lambda::Function', { Properties: { Description: description } }),
  );
  if (ids.length !== 1) throw new Error(`${ids.length} functions described as ${description}`);
  return ids[0] as string;
}

/** IAM policy statements attached to a role, from all the AWS::IAM::Policy resources naming it. */
export function roleStatements(
  template: Template,
  roleId: string,
): Array<{ Action: string | string[]; Resource: unknown; Effect: string }> {
  const policies = template.findResources('AWS::IAM::Policy', {
    Properties: { Roles: Match.arrayWith([{ Ref: roleId }]) },
  }) as Resources;
  return Object.values(policies).flatMap(
    (policy) =>
      (
        policy.Properties.PolicyDocument as {
          Statement: Array<{ Action: string | string[]; Resource: unknown; Effect: string }>;
        }
      ).Statement,
  );
}

/** An IAM statement as the template has it. */
export interface Statement {
  readonly Action: string | string[];
  readonly Resource: unknown;
  readonly Effect: string;
}

/** Logical id of a construct's CloudFormation resource (its default child). */
export function logicalId(construct: IConstruct): string {
  const resource = (construct.node.defaultChild ?? construct) as CfnElement;
  return Stack.of(construct).getLogicalId(resource);
}

/** The statements of a function's role, without its logs and X-Ray ones (which every function has). */
export function dataStatements(template: Template, fn: IFunction): Statement[] {
  if (!fn.role) throw new Error(`${fn.node.path} has no role`);
  return roleStatements(template, logicalId(fn.role)).filter(
    (s) => ![s.Action].flat().every((a) => /^(logs:(CreateLogStream|PutLogEvents)|xray:Put)/.test(a)),
  );
}

/** Actions of the statements, optionally only those naming `resource`, as a sorted list. */
export function actionsOn(statements: readonly Statement[], resource?: unknown): string[] {
  const key = JSON.stringify(resource);
  return [
    ...new Set(
      statements
        .filter((s) => resource === undefined || [s.Resource].flat().some((r) => JSON.stringify(r) === key))
        .flatMap((s) => [s.Action].flat()),
    ),
  ].sort();
}

/** Every resource the statements name (JSON strings, to compare CloudFormation intrinsics). */
export function resourcesOf(statements: readonly Statement[]): string[] {
  return [...new Set(statements.flatMap((s) => [s.Resource].flat().map((r) => JSON.stringify(r))))].sort();
}

/** `{ "Fn::GetAtt": [id, "Arn"] }` */
export const arnOf = (id: string) => ({ 'Fn::GetAtt': [id, 'Arn'] });

/** The ARN pattern `<resource ARN><suffix>` as CDK renders it (`/index/*`, `/uploads/*`). */
export const arnWith = (id: string, suffix: string) => ({ 'Fn::Join': ['', [arnOf(id), suffix]] });
