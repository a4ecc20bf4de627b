/**
 * DynamoDB clients and stores, built once per Lambda container. Endpoints come from the SDK's
 * standard environment (AWS_ENDPOINT_URL_DYNAMODB points them at a local stand-in). Queue and
 * upload clients live beside their modules, so read handlers bundle only DynamoDB.
 */
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { requireEnv } from '../config';
import { JobStore } from './job-store';
import { PackageStore } from './package-store';
import { JOBS_TABLE, PACKAGES_TABLE } from './tables';

let documentClient: DynamoDBDocumentClient | undefined;

export function dynamoDocumentClient(): DynamoDBDocumentClient {
  documentClient ??= DynamoDBDocumentClient.from(new DynamoDBClient({}), {
    marshallOptions: { removeUndefinedValues: true },
  });
  return documentClient;
}

export function packageStoreFromEnv(): PackageStore {
  return new PackageStore(dynamoDocumentClient(), requireEnv(PACKAGES_TABLE.envVar));
}

export function jobStoreFromEnv(): JobStore {
  return new JobStore(dynamoDocumentClient(), requireEnv(JOBS_TABLE.envVar));
}
