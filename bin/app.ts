/**
 * The CDK app: `npx cdk synth`, `npx cdk deploy [-c key=value ...]`. Parameters: docs/infrastructure.md.
 */
import { App } from 'aws-cdk-lib';
import { addService } from '../lib/service';

const app = new App();
addService(app);
app.synth();
