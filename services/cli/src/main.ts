import { Command, CommanderError } from 'commander';
import { registerDetectCommand } from './commands/detect';
import { registerKeysCommands } from './commands/keys';
import { registerProjectsCommands } from './commands/projects';
import { registerReplayCommands } from './commands/replay';
import { registerSchemaCommands } from './commands/schema';
import { registerStackCommands } from './commands/stack';
import { registerStartCommand } from './commands/start';
import { registerUsersCommands } from './commands/users';

const program = new Command('warden')
  .description('Warden: security telemetry for AI agents')
  .showHelpAfterError('(run `npx warden --help` for usage)');

registerStackCommands(program);
registerSchemaCommands(program);
registerStartCommand(program);
registerDetectCommand(program);
registerKeysCommands(program);
registerProjectsCommands(program);
registerUsersCommands(program);
registerReplayCommands(program);

try {
  await program.parseAsync(process.argv);
} catch (err) {
  if (err instanceof CommanderError) process.exit(err.exitCode);
  console.error(`warden: ${(err as Error).message}`);
  process.exit(1);
}
