package dev.agentbus.gateway.readmodels;

import dev.agentbus.gateway.errors.ApiException;

import java.time.LocalDate;
import java.time.format.DateTimeParseException;

/** Checks of query parameters shared by the read-model endpoints; each refusal is a 400 that names the parameter. */
public final class Params {
    private Params() {
    }

    public static int limit(Integer value, int fallback, int max) {
        if (value == null) {
            return fallback;
        }
        if (value < 1 || value > max) {
            throw ApiException.badRequest("limit must be between 1 and " + max + ", got " + value);
        }
        return value;
    }

    public static int offset(Integer value) {
        if (value == null) {
            return 0;
        }
        if (value < 0) {
            throw ApiException.badRequest("offset must be 0 or more, got " + value);
        }
        return value;
    }

    /** An ISO date ({@code 2026-11-22}), or the fallback when absent. */
    public static LocalDate date(String name, String value, LocalDate fallback) {
        if (value == null || value.isBlank()) {
            return fallback;
        }
        try {
            return LocalDate.parse(value.strip());
        } catch (DateTimeParseException e) {
            throw ApiException.badRequest(name + " must be a date like 2026-11-22, got '" + value + "'");
        }
    }

    /** One of the allowed values (compared without regard to case), returned in the case of the allowed one. */
    public static String oneOf(String name, String value, java.util.List<String> allowed) {
        if (value == null || value.isBlank()) {
            return null;
        }
        return allowed.stream().filter(a -> a.equalsIgnoreCase(value.strip())).findFirst()
                .orElseThrow(() -> ApiException.badRequest(name + " must be one of " + String.join(", ", allowed)
                        + ", got '" + value + "'"));
    }
}
