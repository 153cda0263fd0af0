package dev.agentbus.gateway.auth;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashMap;
import java.util.Iterator;
import java.util.Map;
import java.util.Optional;

/**
 * Slows password guessing: failed logins are counted per username and per client address, {@code limit} in a
 * minute each. How the two are used ({@code LoginController}) differs on purpose:
 * <ul>
 *   <li>a username over its limit ({@link #forUsername}) gets 429 for every attempt, right or wrong, until the oldest
 *       failure is a minute old: that is what stops guessing one account's password, from any number of addresses;</li>
 *   <li>an address over its limit ({@link #forAddress}) gets 429 for wrong passwords only: a correct password still
 *       logs in. Behind a proxy or a NAT many people share an address, and ten bad requests from one of them must
 *       not lock out everyone else (issue 28); the per-username limit still holds for each name tried.</li>
 * </ul>
 *
 * <p>Kept in memory: each gateway replica counts its own attempts (docs/security.md says so). Pure apart from its
 * map; the clock is a parameter, so tests step time themselves.
 */
public final class LoginThrottle {
    static final Duration WINDOW = Duration.ofMinutes(1);
    /** Enough for a real attack's keys; beyond it the oldest windows are dropped first (see {@link #prune}). */
    private static final int MAX_KEYS = 100_000;

    private final int limit;
    private final Map<String, Deque<Instant>> failures = new HashMap<>();

    public LoginThrottle(int limit) {
        if (limit < 1) {
            throw new IllegalArgumentException("limit must be at least 1");
        }
        this.limit = limit;
    }

    /** How long the username must wait before any attempt, or empty when one may be made now. */
    public Optional<Duration> forUsername(String username, Instant now) {
        return retryAfter(username, null, now);
    }

    /** How long before a wrong password from this address is answered 401 again (429 until then), or empty. */
    public Optional<Duration> forAddress(String address, Instant now) {
        return address == null ? Optional.empty() : wait(new String[]{addressKey(address)}, now);
    }

    /** The longer of the two waits (a null address counts nothing). */
    public Optional<Duration> retryAfter(String username, String address, Instant now) {
        return wait(keys(username, address), now);
    }

    private synchronized Optional<Duration> wait(String[] keys, Instant now) {
        Duration wait = Duration.ZERO;
        for (String key : keys) {
            Deque<Instant> times = failures.get(key);
            if (times == null) {
                continue;
            }
            drop(times, now);
            if (times.size() >= limit) {
                Duration w = Duration.between(now, times.peekFirst().plus(WINDOW));
                wait = w.compareTo(wait) > 0 ? w : wait;
            }
        }
        return wait.isPositive() ? Optional.of(wait) : Optional.empty();
    }

    /** Counts a failure for the username and, when not null, the address. */
    public synchronized void failed(String username, String address, Instant now) {
        if (failures.size() >= MAX_KEYS) {
            prune(now);
        }
        for (String key : keys(username, address)) {
            Deque<Instant> times = failures.computeIfAbsent(key, k -> new ArrayDeque<>());
            drop(times, now);
            times.addLast(now);
            // Only the newest `limit` failures can ever block, so the deque never needs more.
            while (times.size() > limit) {
                times.removeFirst();
            }
        }
    }

    /** Keys counted now (for tests of the memory bound). */
    synchronized int keys() {
        return failures.size();
    }

    /** The keys a failure counts under: the username, and the address when there is one. */
    private static String[] keys(String username, String address) {
        String user = "user:" + (username == null ? "" : username.trim().toLowerCase());
        return address == null ? new String[]{user} : new String[]{user, addressKey(address)};
    }

    private static String addressKey(String address) {
        return "address:" + address;
    }

    private static void drop(Deque<Instant> times, Instant now) {
        Instant horizon = now.minus(WINDOW);
        while (!times.isEmpty() && !times.peekFirst().isAfter(horizon)) {
            times.removeFirst();
        }
    }

    private void prune(Instant now) {
        for (Iterator<Deque<Instant>> it = failures.values().iterator(); it.hasNext(); ) {
            Deque<Instant> times = it.next();
            drop(times, now);
            if (times.isEmpty()) {
                it.remove();
            }
        }
        // Still full: a flood of distinct keys within one minute. Forget half rather than grow without bound.
        if (failures.size() >= MAX_KEYS) {
            Iterator<String> it = failures.keySet().iterator();
            for (int i = 0; i < MAX_KEYS / 2 && it.hasNext(); i++) {
                it.next();
                it.remove();
            }
        }
    }
}
