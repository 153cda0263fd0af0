package dev.agentbus.events;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * The stable, versioned name a record is stored under on the wire, for example {@code "tool_call.requested.v1"}.
 *
 * <p>Why not the class name: stored logs outlive the code. Renaming or moving a record must never make old
 * logs unreadable, so the wire name is explicit and never derived from Java names. A change in meaning gets a
 * new name ({@code .v2}); the old record stays so old logs still fold.
 */
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.TYPE)
public @interface WireType {
    String value();
}
