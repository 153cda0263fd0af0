package dev.agentbus.eventbus;

import io.micronaut.context.annotation.ConfigurationReader;
import io.micronaut.context.annotation.Property;
import io.micronaut.context.env.Environment;
import io.micronaut.context.event.BeanCreatedEvent;
import io.micronaut.context.event.BeanCreatedEventListener;
import io.micronaut.core.naming.NameUtils;
import jakarta.inject.Singleton;

import java.lang.reflect.Parameter;
import java.lang.reflect.RecordComponent;
import java.util.Arrays;
import java.util.Locale;
import java.util.Set;

/**
 * Stops a service whose number or yes/no setting cannot be read, naming the property and the value.
 *
 * <p>Agentbus's settings are {@code @ConfigurationProperties} records, and each record checks its own ranges. But
 * Micronaut binds a value it cannot convert ({@code AGENTBUS_KAFKA_PARTITIONS=three}) as if it were not set, so the
 * default would win without a word; and it reads any word but true, yes, on and y as {@code false}, so
 * {@code AGENTBUS_SANDBOX_NETWORK=1} would quietly mean "no network". This listener looks at the raw text of every
 * number and boolean component of an Agentbus settings record when the record is created.
 */
@Singleton
final class SettingValuesCheck implements BeanCreatedEventListener<Record> {
    private static final Set<String> BOOLEAN_WORDS = Set.of("true", "false", "yes", "no", "on", "off", "y", "n");

    private final Environment environment;

    SettingValuesCheck(Environment environment) {
        this.environment = environment;
    }

    @Override
    public Record onCreated(BeanCreatedEvent<Record> event) {
        Class<Record> type = event.getBeanDefinition().getBeanType();
        event.getBeanDefinition().stringValue(ConfigurationReader.class, ConfigurationReader.PREFIX)
                .filter(prefix -> type.getName().startsWith("dev.agentbus."))
                .ifPresent(prefix -> check(type, prefix));
        return event.getBean();
    }

    private void check(Class<? extends Record> type, String prefix) {
        RecordComponent[] components = type.getRecordComponents();
        Parameter[] parameters;
        try {
            parameters = type.getDeclaredConstructor(Arrays.stream(components).map(RecordComponent::getType)
                    .toArray(Class<?>[]::new)).getParameters();
        } catch (NoSuchMethodException impossible) {
            throw new IllegalStateException("a record without its canonical constructor: " + type, impossible);
        }
        for (int i = 0; i < components.length; i++) {
            Class<?> valueType = components[i].getType();
            if (valueType.isPrimitive() || Number.class.isAssignableFrom(valueType) || valueType == Boolean.class) {
                Property alias = parameters[i].getAnnotation(Property.class);
                String name = alias != null ? alias.name()
                        : prefix + "." + NameUtils.hyphenate(components[i].getName());
                environment.getProperty(name, String.class).ifPresent(raw -> checkReadable(name, raw, valueType));
            }
        }
    }

    void checkReadable(String name, String raw, Class<?> valueType) {
        if (valueType == boolean.class || valueType == Boolean.class) {
            if (!BOOLEAN_WORDS.contains(raw.toLowerCase(Locale.ROOT))) {
                throw new IllegalArgumentException(name + " must be true or false, not '" + raw + "'");
            }
        } else if (environment.convert(raw, valueType).isEmpty()) {
            boolean whole = valueType != double.class && valueType != Double.class
                    && valueType != float.class && valueType != Float.class;
            throw new IllegalArgumentException(name + " must be " + (whole ? "a whole number" : "a number")
                    + ", not '" + raw + "'");
        }
    }
}
