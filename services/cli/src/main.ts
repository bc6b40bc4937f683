import { Command, CommanderError } from 'commander';
import { registerDetectCommand } from './commands/detect';
import { registerKeysCommands } from './commands/keys';
import { registerReplayCommands } from './commands/replay';
import { registerSchemaCommands } from './commands/schema';
import { registerStackCommands } from './commands/stack';
import { registerStartCommand } from './commands/start';

const program = new Command('warden')
  .description('Warden: security telemetry for AI agents')
  .showHelpAfterError('(run `npx warden --help` for usage)');

registerStackCommands(program);
registerSchemaCommands(program);
registerStartCommand(program);
registerDetectCommand(program);
registerKeysCommands(program);
registerReplayCommands(program);

try {
  await program.parseAsync(process.argv);
} catch (err) {
  if (err instanceof CommanderError) process.exit(err.exitCode);
  console.error(`warden: ${(err as Error).message}`);
  process.exit(1);
}
