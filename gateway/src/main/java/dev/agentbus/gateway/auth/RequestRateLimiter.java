package dev.agentbus.gateway.auth;

import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The API's per-credential request rate: a token bucket per API key (or login, or the gateway token) that holds a
 * minute's worth of requests and refills continuously, so short bursts pass and a sustained flood gets 429 with
 * {@code Retry-After}. In memory, per gateway replica. The clock is a parameter, so tests step time themselves.
 */
final class RequestRateLimiter {
    private final double perMinute;
    private final Map<String, Bucket> buckets = new ConcurrentHashMap<>();

    private static final class Bucket {
        double tokens;
        Instant refilled;

        Bucket(double tokens, Instant now) {
            this.tokens = tokens;
            this.refilled = now;
        }
    }

    public RequestRateLimiter(int perMinute) {
        if (perMinute < 1) {
            throw new IllegalArgumentException("perMinute must be at least 1");
        }
        this.perMinute = perMinute;
    }

    /** Takes one request from the credential's bucket: empty when it may go ahead, else how long until it may. */
    public Optional<Duration> take(String credential, Instant now) {
        Bucket b = buckets.computeIfAbsent(credential, k -> new Bucket(perMinute, now));
        synchronized (b) {
            double elapsedMinutes = Math.max(0, Duration.between(b.refilled, now).toNanos()) / 60e9;
            b.tokens = Math.min(perMinute, b.tokens + elapsedMinutes * perMinute);
            b.refilled = now;
            if (b.tokens >= 1) {
                b.tokens -= 1;
                return Optional.empty();
            }
            long nanos = (long) Math.ceil((1 - b.tokens) / perMinute * 60e9);
            return Optional.of(Duration.ofNanos(nanos));
        }
    }

    /** Forgets a credential (a revoked key, an ended login), so the map holds live credentials only. */
    public void forget(String credential) {
        buckets.remove(credential);
    }
}
