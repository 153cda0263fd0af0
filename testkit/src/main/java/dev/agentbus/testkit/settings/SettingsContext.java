package dev.agentbus.testkit.settings;

import io.micronaut.context.ApplicationContext;
import io.micronaut.context.BeanContext;
import io.micronaut.context.env.PropertySource;
import io.micronaut.inject.BeanConfiguration;
import io.micronaut.inject.BeanDefinitionReference;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * An application context of one service that binds its settings but starts nothing: the beans named as left out
 * (the service's runtime, which would connect to Kafka at once) are not created. It reads only the settings given,
 * not the machine's environment or system properties, so a developer's {@code LLM_URL} cannot change a test.
 */
public final class SettingsContext {
    private SettingsContext() {
    }

    /** A context of {@code service} with these properties ({@code agentbus.kafka.partitions} style). */
    public static ApplicationContext start(String service, Map<String, String> properties, Class<?>... leftOut) {
        return start(service, PropertySource.of("test-properties", new HashMap<String, Object>(properties)),
                leftOut);
    }

    /** A context of {@code service} with these environment variables ({@code AGENTBUS_KAFKA_PARTITIONS} style). */
    public static ApplicationContext startWithEnvironment(String service, Map<String, String> variables,
                                                          Class<?>... leftOut) {
        return start(service, PropertySource.of("test-environment", new HashMap<String, Object>(variables),
                PropertySource.PropertyConvention.ENVIRONMENT_VARIABLE), leftOut);
    }

    /**
     * The message a context start stopped with, whatever Micronaut wrapped it in: a settings record's own check
     * comes back inside Micronaut's bean-creation exceptions.
     */
    public static String failureOf(Runnable start) {
        try {
            start.run();
        } catch (RuntimeException e) {
            Throwable cause = e;
            while (cause.getCause() != null) {
                cause = cause.getCause();
            }
            return cause.getMessage();
        }
        throw new AssertionError("the context started, but it should have stopped on a bad setting");
    }

    private static ApplicationContext start(String service, PropertySource settings, Class<?>... leftOut) {
        Map<String, Object> serviceProperty = new HashMap<>();
        serviceProperty.put("agentbus.service", service);
        return ApplicationContext.builder()
                .enableDefaultPropertySources(false)
                .propertySources(settings, PropertySource.of("test-service", serviceProperty))
                .beanConfigurations(new LeftOut(List.of(leftOut)))
                .start();
    }

    /** A configuration that is never enabled and holds exactly the left-out beans, so the context skips them. */
    private record LeftOut(List<Class<?>> types) implements BeanConfiguration {
        @Override
        public Package getPackage() {
            return SettingsContext.class.getPackage();
        }

        @Override
        public String getName() {
            return "agentbus-test-left-out-beans";
        }

        @Override
        public String getVersion() {
            return null;
        }

        @Override
        public boolean isEnabled(BeanContext context) {
            return false;
        }

        @Override
        public boolean isEnabled(BeanContext context, io.micronaut.context.BeanResolutionContext resolution) {
            return false;
        }

        @Override
        public boolean isWithin(BeanDefinitionReference reference) {
            return types.stream().anyMatch(type -> type.isAssignableFrom(reference.getBeanType()));
        }

        @Override
        public boolean isWithin(String className) {
            return types.stream().anyMatch(type -> type.getName().equals(className));
        }

        @Override
        public boolean isWithin(Class cls) {
            return types.stream().anyMatch(type -> type.isAssignableFrom(cls));
        }
    }
}
