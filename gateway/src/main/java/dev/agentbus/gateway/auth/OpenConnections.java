package dev.agentbus.gateway.auth;

import io.micronaut.http.HttpRequest;
import jakarta.inject.Singleton;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Sinks;

import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Predicate;

/**
 * The WebSockets and SSE streams open on this gateway, by the credential that opened them, so that taking a
 * credential away reaches them at once: a revoked API key, an ended login, a logout, a password reset or change.
 * The auth code does not name connections; it says "this user's credentials changed"
 * ({@link Authenticator#forgetUser}), and every open connection of that user whose credential no longer passes
 * {@link Authenticator#stillValid} is closed (a WebSocket with code 4401, an SSE stream ends). A sweep
 * ({@link OpenConnectionsSweep}) does the same for everyone every half minute, for what another replica revoked and
 * for logins that expired.
 *
 * <p>Where a stream or socket is opened, one line registers it: {@link #register} for a WebSocket,
 * {@link #endWhenRevoked} around an SSE publisher.
 */
@Singleton
public class OpenConnections {
    /** The request attribute {@link AuthenticationFilter} puts this registry under, for {@link #endWhenRevoked}. */
    static final String ATTRIBUTE = "agentbus.open-connections";
    private static final Logger LOG = LoggerFactory.getLogger(OpenConnections.class);

    private record Open(Caller caller, Runnable close) {
    }

    private final Map<String, Set<Open>> byUser = new ConcurrentHashMap<>();

    /**
     * Keeps {@code close} to run when the caller's credential is taken away.
     *
     * @return run it when the connection ends by itself, so the registry forgets it
     */
    public Runnable register(Caller caller, Runnable close) {
        Open open = new Open(caller, close);
        byUser.computeIfAbsent(caller.userId(), u -> ConcurrentHashMap.newKeySet()).add(open);
        return () -> byUser.computeIfPresent(caller.userId(), (u, set) -> {
            set.remove(open);
            return set.isEmpty() ? null : set;
        });
    }

    /**
     * The SSE stream, ended as soon as the request's credential is taken away. One line where a stream is made:
     * {@code return OpenConnections.endWhenRevoked(request, stream);}
     */
    public static <T> Flux<T> endWhenRevoked(HttpRequest<?> request, Flux<T> stream) {
        OpenConnections registry = request.getAttribute(ATTRIBUTE, OpenConnections.class).orElse(null);
        if (registry == null) {
            return stream; // not through the authentication filter: nothing to revoke
        }
        Caller caller = Callers.callerOf(request);
        return Flux.defer(() -> {
            Sinks.One<Boolean> revoked = Sinks.one();
            Runnable forget = registry.register(caller, () -> revoked.tryEmitValue(true));
            return stream.takeUntilOther(revoked.asMono()).doFinally(signal -> forget.run());
        });
    }

    /** Closes the user's connections whose credential is no longer {@code live}. */
    void closeRevoked(String userId, Predicate<Caller> live) {
        Set<Open> open = byUser.get(userId);
        if (open != null) {
            closeRevoked(List.copyOf(open), live);
        }
    }

    /** Closes every connection whose credential is no longer {@code live}. */
    void closeAllRevoked(Predicate<Caller> live) {
        byUser.values().forEach(set -> closeRevoked(List.copyOf(set), live));
    }

    /** How many connections are registered (for tests). */
    int count() {
        return byUser.values().stream().mapToInt(Set::size).sum();
    }

    private void closeRevoked(List<Open> open, Predicate<Caller> live) {
        for (Open o : open) {
            boolean keep;
            try {
                keep = live.test(o.caller());
            } catch (RuntimeException e) {
                // The database is away: keep the connection; the next sweep or command checks again.
                LOG.debug("cannot check a credential of {}: {}", o.caller().userId(), e.toString());
                keep = true;
            }
            if (!keep) {
                try {
                    o.close().run();
                } catch (RuntimeException e) {
                    LOG.warn("closing a revoked connection of {} failed: {}", o.caller().userId(), e.toString());
                }
            }
        }
    }
}
