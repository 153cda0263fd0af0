package dev.agentbus.events.insights;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;

import java.time.Duration;
import java.util.Locale;
import java.util.Optional;

/**
 * What an insight is about. Each category fades at its own pace: who someone is changes slowly, what they did in one
 * session is stale within days.
 */
public enum InsightCategory {
    IDENTITY("identity", Duration.ofDays(365)),
    SKILL("skill", Duration.ofDays(180)),
    PREFERENCE("preference", Duration.ofDays(90)),
    PROJECT("project", Duration.ofDays(45)),
    OPINION("opinion", Duration.ofDays(30)),
    SESSION_DETAIL("session_detail", Duration.ofDays(3));

    private final String wireName;
    private final Duration halfLife;

    InsightCategory(String wireName, Duration halfLife) {
        this.wireName = wireName;
        this.halfLife = halfLife;
    }

    @JsonValue
    public String wireName() {
        return wireName;
    }

    /** After this long without being seen again, an insight's freshness has halved. */
    public Duration halfLife() {
        return halfLife;
    }

    /** The category a model or a client named: {@code session detail}, {@code session-detail} and any case too. */
    public static Optional<InsightCategory> parse(String name) {
        if (name == null) {
            return Optional.empty();
        }
        String n = name.strip().toLowerCase(Locale.ROOT).replace(' ', '_').replace('-', '_');
        for (InsightCategory c : values()) {
            if (c.wireName.equals(n)) {
                return Optional.of(c);
            }
        }
        return Optional.empty();
    }

    @JsonCreator
    static InsightCategory fromJson(String name) {
        return parse(name).orElseThrow(() -> new IllegalArgumentException("unknown insight category '" + name + "'"));
    }
}
