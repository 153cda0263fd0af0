package dev.agentbus.broker;

import java.lang.reflect.Method;
import java.util.List;

import org.slf4j.ILoggerFactory;
import org.slf4j.LoggerFactory;

/**
 * Holds the embedded broker's loggers at WARN unless the application chose a level for them.
 *
 * <p>Kafka logs through slf4j, so whichever binding the host process has decides what is printed.
 * The services use logback-classic, whose default would print every INFO line of the broker (each
 * segment roll, each group rebalance, full config dumps) next to the services' own output. This
 * module must not ship a logback.xml (it would fight the services' configuration), so the levels
 * are set here, at run time, and only for loggers that no configuration mentioned — an explicit
 * {@code <logger name="kafka" level="INFO"/>} still wins.
 *
 * <p>Done by reflection so logback stays out of this module's compile/runtime dependencies;
 * with any other binding (or none, which makes slf4j a no-op) nothing is touched.
 */
final class KafkaLogLevels {

    /** Broker-side logger roots: Scala core ("kafka.*"), Java modules, and the named side loggers. */
    static final List<String> KAFKA_LOGGERS = List.of(
            "kafka", "org.apache.kafka", "state.change.logger", "kafka.request.logger");

    private static volatile boolean applied;

    private KafkaLogLevels() {
    }

    static void quietKafkaUnlessConfigured() {
        if (applied) {
            return;
        }
        applied = true;
        ILoggerFactory factory = LoggerFactory.getILoggerFactory();
        if (!"ch.qos.logback.classic.LoggerContext".equals(factory.getClass().getName())) {
            return;
        }
        try {
            ClassLoader cl = factory.getClass().getClassLoader();
            Class<?> levelClass = Class.forName("ch.qos.logback.classic.Level", true, cl);
            Object warn = levelClass.getField("WARN").get(null);
            Method getLogger = factory.getClass().getMethod("getLogger", String.class);
            for (String name : KAFKA_LOGGERS) {
                Object logger = getLogger.invoke(factory, name);
                Method getLevel = logger.getClass().getMethod("getLevel");
                if (getLevel.invoke(logger) == null) {
                    logger.getClass().getMethod("setLevel", levelClass).invoke(logger, warn);
                }
            }
        } catch (ReflectiveOperationException | RuntimeException e) {
            // Cosmetic only: a logback we do not understand must never keep the broker from starting.
            LoggerFactory.getLogger(KafkaLogLevels.class).debug("could not adjust Kafka log levels", e);
        }
    }
}
