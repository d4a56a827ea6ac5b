// The warpscope VS Code extension: starts `warpscope lsp` for PTX documents.
import * as vscode from 'vscode';
import {
  LanguageClient,
  LanguageClientOptions,
  ServerOptions,
  TransportKind,
} from 'vscode-languageclient/node';

let client: LanguageClient | undefined;

function settings(): object {
  const c = vscode.workspace.getConfiguration('warpscope');
  return {
    inlayHints: { enable: c.get<boolean>('inlayHints.enable', true) },
    explainUrl: c.get<string>('explainUrl', ''),
  };
}

export async function activate(context: vscode.ExtensionContext): Promise<void> {
  const command = vscode.workspace.getConfiguration('warpscope').get<string>('path', 'warpscope');
  const serverOptions: ServerOptions = {
    run: { command, args: ['lsp'], transport: TransportKind.stdio },
    debug: { command, args: ['lsp'], transport: TransportKind.stdio },
  };
  const clientOptions: LanguageClientOptions = {
    documentSelector: [{ language: 'ptx' }],
    initializationOptions: settings(),
    // Sends `workspace/didChangeConfiguration` with the `warpscope` section
    // whenever the user changes it; the server reads `settings.warpscope`.
    synchronize: { configurationSection: 'warpscope' },
  };
  client = new LanguageClient('warpscope', 'warpscope', serverOptions, clientOptions);
  context.subscriptions.push(
    vscode.workspace.onDidChangeConfiguration(async (e) => {
      if (e.affectsConfiguration('warpscope.path') && client) {
        await client.stop();
        await activate(context);
      }
    }),
  );
  await client.start();
}

export async function deactivate(): Promise<void> {
  if (client) {
    await client.stop();
    client = undefined;
  }
}
