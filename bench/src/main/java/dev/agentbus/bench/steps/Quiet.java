package dev.agentbus.bench.steps;

/** Logging at WARN: the services log every step at INFO, which on this path is the benchmark's own noise. */
public final class Quiet {
    private Quiet() {
    }

    public static void logs() {
        if (org.slf4j.LoggerFactory.getILoggerFactory() instanceof ch.qos.logback.classic.LoggerContext context) {
            context.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME).setLevel(ch.qos.logback.classic.Level.WARN);
            context.getLogger("dev.agentbus").setLevel(ch.qos.logback.classic.Level.WARN);
            context.getLogger("org.apache.kafka").setLevel(ch.qos.logback.classic.Level.ERROR);
            context.getLogger("kafka").setLevel(ch.qos.logback.classic.Level.ERROR);
        }
    }
}
