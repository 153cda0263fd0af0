package dev.agentbus.gateway.websocket;

/** Runs one command: returns its answer (a {@link Reply.Result} or a {@link Reply.Failure}). */
@FunctionalInterface
interface CommandHandler {
    Reply handle(Call call) throws InterruptedException;
}
