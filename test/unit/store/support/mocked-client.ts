/**
 * A DynamoDB document client whose calls are served by a test's function, through
 * aws-sdk-client-mock: each command class the stores send is routed, by name ('Get', 'Put',
 * …), to `serve`; any other command fails. One instance per simulated process, so that a
 * scheduler can tell the callers apart.
 */
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import {
  BatchGetCommand,
  BatchWriteCommand,
  DeleteCommand,
  DynamoDBDocumentClient,
  GetCommand,
  PutCommand,
  QueryCommand,
  TransactWriteCommand,
  UpdateCommand,
} from '@aws-sdk/lib-dynamodb';
import { mockClient, type AwsClientStub } from 'aws-sdk-client-mock';
import type { FakeDynamo, Item } from './fake-dynamo';

export type Serve = (command: string, input: Item) => unknown;

const COMMANDS = [
  ['Get', GetCommand],
  ['Put', PutCommand],
  ['Update', UpdateCommand],
  ['Delete', DeleteCommand],
  ['Query', QueryCommand],
  ['BatchGet', BatchGetCommand],
  ['BatchWrite', BatchWriteCommand],
  ['TransactWrite', TransactWriteCommand],
] as const;

export class MockedClient {
  readonly doc: DynamoDBDocumentClient;
  readonly stub: AwsClientStub<DynamoDBDocumentClient>;
  /** Serves this client's calls; replaced freely between runs. */
  serve: Serve = () => {
    throw new Error('MockedClient: no serve function set');
  };

  constructor() {
    this.doc = DynamoDBDocumentClient.from(new DynamoDBClient({}), {
      marshallOptions: { removeUndefinedValues: true },
    });
    this.stub = mockClient(this.doc);
    // The behaviour is set on the client mock's underlying sinon stub: the mock's own
    // `on(GetCommand)` / `onAnyCommand()` add a `withArgs` matcher that sinon deep-compares
    // with every call's arguments, which costs more than the fake itself when a test makes
    // hundreds of thousands of calls.
    this.stub.send.callsFake(async (command) => {
      const entry = COMMANDS.find(([, type]) => command instanceof type);
      if (!entry) throw new Error('MockedClient: command not served by the fake');
      // Always a promise: `send(...).catch(...)` in the stores must see failures as rejections.
      return (await this.serve(entry[0], command.input as Item)) as never;
    });
  }

  /** Serves every call straight from `fake`. */
  static on(fake: FakeDynamo): MockedClient {
    const client = new MockedClient();
    client.serve = (command, input) => fake.handle(command, input);
    return client;
  }
}
