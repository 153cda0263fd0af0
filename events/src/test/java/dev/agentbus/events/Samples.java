package dev.agentbus.events;

import java.lang.reflect.Constructor;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.RecordComponent;
import java.lang.reflect.Type;
import java.time.Instant;
import java.util.List;

/**
 * Builds a sample instance of any record of the schema, reflectively, so tests that must cover every wire type
 * (codec round trips, fold totality) pick up a new type without anyone remembering to add it.
 *
 * <p>Every component gets a value that is neither null nor a default (no 0, no false, no empty list), and values
 * differ per component (strings name their component, numbers depend on its position). So a round trip that
 * drops, defaults or swaps a field fails. A component of a type this class does not know fails loudly: add a
 * case to {@link #value}.
 */
public final class Samples {
    private static final Instant BASE_TIME = Instant.parse("2025-03-14T09:26:53.123456789Z");

    private Samples() {
    }

    public static <T> T of(Class<T> type) {
        if (!type.isRecord()) {
            throw new AssertionError(type.getName() + " is not a record; Samples only builds records. "
                    + "Every wire type should be an immutable record.");
        }
        RecordComponent[] components = type.getRecordComponents();
        Object[] args = new Object[components.length];
        Class<?>[] types = new Class<?>[components.length];
        for (int i = 0; i < components.length; i++) {
            types[i] = components[i].getType();
            args[i] = value(type, components[i], components[i].getGenericType(), i);
        }
        try {
            Constructor<T> canonical = type.getDeclaredConstructor(types);
            canonical.setAccessible(true);
            return canonical.newInstance(args);
        } catch (ReflectiveOperationException e) {
            throw new AssertionError("cannot build a sample " + type.getSimpleName() + ": " + e, e);
        }
    }

    private static Object value(Class<?> owner, RecordComponent component, Type generic, int index) {
        Class<?> raw = rawClass(generic);
        if (raw == String.class) {
            return component.getName() + ":" + owner.getSimpleName();
        }
        if (raw == int.class || raw == Integer.class) {
            return 101 + index;
        }
        if (raw == long.class || raw == Long.class) {
            return 1_000_001L + index;
        }
        if (raw == boolean.class || raw == Boolean.class) {
            return true;
        }
        if (raw == double.class || raw == Double.class) {
            return 0.25 + index / 100.0;
        }
        if (raw == Instant.class) {
            return BASE_TIME.plusSeconds(index);
        }
        if (raw.isEnum()) {
            Object[] constants = raw.getEnumConstants();
            // The last constant: never the first (often the "default" one) when there is more than one.
            return constants[constants.length - 1];
        }
        if (raw == List.class && generic instanceof ParameterizedType p) {
            Type element = p.getActualTypeArguments()[0];
            return List.of(value(owner, component, element, index));
        }
        if (raw == java.util.Map.class && generic instanceof ParameterizedType p) {
            Type valueType = p.getActualTypeArguments()[1];
            return java.util.Map.of(component.getName() + "-key", value(owner, component, valueType, index));
        }
        if (raw.isRecord()) {
            return of(raw);
        }
        if (raw.isSealed()) {
            // The first permitted record: enough to show the type survives the wire with its discriminator.
            for (Class<?> sub : raw.getPermittedSubclasses()) {
                if (sub.isRecord()) {
                    return of(sub);
                }
            }
        }
        throw new AssertionError("Samples cannot build a value of type " + generic.getTypeName() + " for "
                + owner.getSimpleName() + "." + component.getName() + "; add a case to Samples.value");
    }

    private static Class<?> rawClass(Type type) {
        if (type instanceof Class<?> c) {
            return c;
        }
        if (type instanceof ParameterizedType p) {
            return (Class<?>) p.getRawType();
        }
        throw new AssertionError("unsupported component type " + type.getTypeName());
    }
}
