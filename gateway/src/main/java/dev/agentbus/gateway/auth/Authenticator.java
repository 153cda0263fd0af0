package dev.agentbus.gateway.auth;

import dev.agentbus.gateway.accounts.apikeys.ApiKeys;
import dev.agentbus.gateway.accounts.credentials.SecretTokens;
import dev.agentbus.gateway.accounts.signingin.LoginSession;
import dev.agentbus.gateway.accounts.signingin.LoginSessions;
import dev.agentbus.gateway.accounts.users.Account;
import dev.agentbus.gateway.accounts.users.Accounts;
import dev.agentbus.gateway.accounts.users.TeamRules;
import dev.agentbus.gateway.readmodels.ReadModelDatabase;
import jakarta.inject.Inject;
import jakarta.inject.Singleton;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Turns a presented credential into a {@link Caller}: the gateway token (the first admin, no database needed), an
 * API key, or a browser login's cookie. Lookups are cached for a few seconds so a busy client does not cost a
 * database round trip per request; anything that takes a credential away ({@link #forgetUser}) clears the cache at
 * once on this replica, and within {@link #CACHE_FOR} on the others.
 */
@Singleton
public class Authenticator {
    static final Duration CACHE_FOR = Duration.ofSeconds(10);
    /** A login's expiry is moved forward at most this often, not on every request. */
    static final Duration TOUCH_EVERY = Duration.ofMinutes(1);
    private static final int MAX_CACHED = 10_000;
    /** The first admin's username, which the gateway token acts as. */
    public static final String ADMIN_USERNAME = "admin";

    private record Cached(Caller caller, Instant validUntil, LoginSession login) {
    }

    private final GatewayToken token;
    private final OpenConnections connections;
    private final ReadModelDatabase database;
    private final AuthSettings settings;
    private final Clock clock;
    private final Map<String, Cached> cache = new ConcurrentHashMap<>();
    private volatile Instant requireTotpUntil = Instant.MIN;
    private volatile boolean requireTotp;

    @Inject
    public Authenticator(GatewayToken token, ReadModelDatabase database, AuthSettings settings,
                         OpenConnections connections) {
        this(token, database, settings, connections, Clock.systemUTC());
    }

    Authenticator(GatewayToken token, ReadModelDatabase database, AuthSettings settings, OpenConnections connections,
                  Clock clock) {
        this.token = token;
        this.connections = connections;
        this.database = database;
        this.settings = settings;
        this.clock = clock;
    }

    /** {@code Authorization: Bearer <presented>}: the gateway token or an unrevoked API key. */
    public Optional<Caller> bearer(String presented) {
        if (presented == null || presented.isBlank()) {
            return Optional.empty();
        }
        if (token.matches(presented)) {
            return Optional.of(new Caller(token.userId(), ADMIN_USERNAME, Role.ADMIN, Caller.Via.GATEWAY_TOKEN, null,
                    null, false));
        }
        if (!database.configured()) {
            return Optional.empty();
        }
        String hash = SecretTokens.sha256Hex(presented.trim());
        Instant now = clock.instant();
        Cached hit = cache.get(hash);
        if (hit != null && now.isBefore(hit.validUntil())) {
            return Optional.of(hit.caller());
        }
        Optional<Caller> caller = database.query(c -> {
            Optional<ApiKeys.Owner> owner = ApiKeys.byHash(c, hash);
            if (owner.isEmpty()) {
                return Optional.<Caller>empty();
            }
            ApiKeys.used(c, owner.get().keyId(), now);
            return Accounts.byId(c, owner.get().userId()).map(a -> caller(a, Caller.Via.API_KEY,
                    owner.get().keyId(), null));
        });
        caller.ifPresent(found -> remember(hash, new Cached(found, now.plus(CACHE_FOR), null)));
        return caller;
    }

    /** The login cookie's value: a live browser login, its expiry moved forward (sliding, capped). */
    public Optional<Caller> login(String cookie) {
        if (cookie == null || cookie.isBlank() || !database.configured()) {
            return Optional.empty();
        }
        String hash = SecretTokens.sha256Hex(cookie.trim());
        Instant now = clock.instant();
        Cached hit = cache.get(hash);
        if (hit != null && now.isBefore(hit.validUntil()) && hit.login().liveAt(now)
                && Duration.between(hit.login().lastSeenAt(), now).compareTo(TOUCH_EVERY) < 0) {
            return Optional.of(hit.caller());
        }
        Optional<Cached> found = database.query(c -> {
            Optional<LoginSession> login = LoginSessions.byTokenHash(c, hash).filter(l -> l.liveAt(now));
            if (login.isEmpty()) {
                return Optional.<Cached>empty();
            }
            LoginSession l = login.get();
            Instant expires = min(now.plus(settings.loginIdleTimeout()), l.absoluteExpiresAt());
            LoginSessions.touch(c, l.loginId(), now, expires);
            LoginSession touched = new LoginSession(l.loginId(), l.userId(), l.csrfToken(), l.createdAt(), now,
                    expires, l.absoluteExpiresAt(), l.address(), l.userAgent());
            return Accounts.byId(c, l.userId()).map(a -> new Cached(caller(a, Caller.Via.LOGIN, l.loginId(),
                    l.csrfToken()), now.plus(CACHE_FOR), touched));
        });
        found.ifPresentOrElse(f -> remember(hash, f), () -> cache.remove(hash));
        return found.map(Cached::caller);
    }

    /**
     * Whether the team requires two-factor login (an admin setting), cached like credentials. False without a
     * database: there are no browser logins then.
     */
    public boolean totpRequired() {
        if (!database.configured()) {
            return false;
        }
        Instant now = clock.instant();
        if (now.isAfter(requireTotpUntil)) {
            requireTotp = database.query(TeamRules::requireTotp);
            requireTotpUntil = now.plus(CACHE_FOR);
        }
        return requireTotp;
    }

    /**
     * Drops every cached credential of the user (a key revoked, a login ended, a role or password changed), and closes
     * the user's open WebSockets and SSE streams whose credential is gone ({@link OpenConnections}).
     */
    public void forgetUser(String userId) {
        cache.values().removeIf(c -> c.caller().userId().equals(userId));
        connections.closeRevoked(userId, this::stillValid);
    }

    /**
     * Whether the credential a caller proved itself with still holds, asked of the database (no cache): an open
     * WebSocket asks before each command, and {@link OpenConnections} before keeping a connection. The gateway token
     * holds while the gateway runs.
     */
    public boolean stillValid(Caller caller) {
        if (caller.via() == Caller.Via.GATEWAY_TOKEN) {
            return true;
        }
        if (!database.configured() || caller.credentialId() == null) {
            return false;
        }
        Instant now = clock.instant();
        return database.query(c -> switch (caller.via()) {
            case API_KEY -> ApiKeys.live(c, caller.credentialId());
            case LOGIN -> LoginSessions.byId(c, caller.credentialId()).filter(l -> l.liveAt(now)).isPresent();
            case GATEWAY_TOKEN -> true;
        });
    }

    /** The team's rules changed: read them again at the next request. */
    public void forgetRules() {
        requireTotpUntil = Instant.MIN;
    }

    private void remember(String hash, Cached entry) {
        if (cache.size() >= MAX_CACHED) {
            cache.clear();
        }
        cache.put(hash, entry);
    }

    private static Caller caller(Account a, Caller.Via via, String credentialId, String csrf) {
        return new Caller(a.userId(), a.username(), a.role(), via, credentialId, csrf, a.totpEnabled());
    }

    private static Instant min(Instant a, Instant b) {
        return a.isBefore(b) ? a : b;
    }
}
