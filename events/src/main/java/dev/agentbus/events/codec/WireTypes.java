package dev.agentbus.events.codec;

import dev.agentbus.events.WireType;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The wire-name table of one sealed interface, built from its permitted records' {@link WireType}s.
 * Building it from the sealed hierarchy means a new record cannot be forgotten: one without a wire name fails
 * here, at start-up and in the tests, not when the first such record is written.
 */
public final class WireTypes<T> {
    private final Map<String, Class<? extends T>> byName = new LinkedHashMap<>();
    private final Map<Class<?>, String> byClass = new LinkedHashMap<>();

    public WireTypes(Class<T> sealedInterface, Class<?>... withoutWireName) {
        add(sealedInterface, java.util.Set.of(withoutWireName));
    }

    /** The records of a sealed interface, and of the sealed interfaces it permits (a family such as PlanningEvent). */
    @SuppressWarnings("unchecked")
    private void add(Class<?> sealedInterface, java.util.Set<Class<?>> exempt) {
        for (Class<?> sub : sealedInterface.getPermittedSubclasses()) {
            if (exempt.contains(sub)) {
                continue;
            }
            if (sub.isInterface() && sub.isSealed()) {
                add(sub, exempt);
                continue;
            }
            WireType wire = sub.getAnnotation(WireType.class);
            if (wire == null) {
                throw new IllegalStateException(sub.getName() + " has no @WireType");
            }
            if (byName.put(wire.value(), (Class<? extends T>) sub) != null) {
                throw new IllegalStateException("duplicate wire type " + wire.value());
            }
            byClass.put(sub, wire.value());
        }
    }

    public String nameOf(Class<?> type) {
        String name = byClass.get(type);
        if (name == null) {
            throw new IllegalArgumentException(type.getName() + " has no wire name");
        }
        return name;
    }

    /** The record class for a wire name, or null when this code does not know it (tolerant reading). */
    public Class<? extends T> classOf(String wireName) {
        return byName.get(wireName);
    }

    public Map<String, Class<? extends T>> all() {
        return Collections.unmodifiableMap(byName);
    }
}
