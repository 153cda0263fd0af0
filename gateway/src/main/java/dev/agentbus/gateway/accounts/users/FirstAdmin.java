package dev.agentbus.gateway.accounts.users;

import dev.agentbus.eventbus.DataDir;
import dev.agentbus.gateway.accounts.auditing.AccountEvents;
import dev.agentbus.gateway.accounts.credentials.SecretTokens;
import dev.agentbus.gateway.auth.AuthSettings;
import dev.agentbus.gateway.auth.Authenticator;
import dev.agentbus.gateway.auth.GatewaySettings;
import dev.agentbus.gateway.auth.Role;
import dev.agentbus.gateway.readmodels.ReadModelDatabase;
import io.micronaut.context.annotation.Context;
import jakarta.annotation.PreDestroy;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;

/**
 * On the first start with an empty account store, makes the first admin: username {@code admin}, user id the
 * gateway's configured user (so the standalone token, which acts as that user, is the admin's key, and sessions made
 * before accounts existed stay theirs). The password is {@code AGENTBUS_ADMIN_PASSWORD}, or generated, written to
 * {@code <data dir>/admin-password} readable only by its owner, and shown once in the start-up banner.
 *
 * <p>Tried once at start-up, then every few seconds in the background until PostgreSQL answers: a database that is
 * down delays accounts, not the gateway. Several replicas starting at once make one admin (the insert is
 * conflict-free).
 */
@Context
public class FirstAdmin {
    private static final Logger LOG = LoggerFactory.getLogger(FirstAdmin.class);
    static final String PASSWORD_FILE = "admin-password";
    private static final long RETRY_MILLIS = 3_000;

    private final ReadModelDatabase database;
    private final Passwords passwords;
    private final AuthSettings auth;
    private final String userId;
    private final Path passwordFile;
    private volatile String generated;
    private volatile Thread retrying;

    public FirstAdmin(ReadModelDatabase database, Passwords passwords, AuthSettings auth, GatewaySettings gateway) {
        this.database = database;
        this.passwords = passwords;
        this.auth = auth;
        this.userId = gateway.user();
        this.passwordFile = DataDir.of(gateway.dataDir()).resolve(PASSWORD_FILE);
        if (!database.configured()) {
            return;
        }
        if (!auth.adminPassword().isBlank()) {
            try {
                passwords.checkNew(auth.adminPassword(), Authenticator.ADMIN_USERNAME);
            } catch (dev.agentbus.gateway.errors.ApiException e) {
                throw new IllegalStateException("AGENTBUS_ADMIN_PASSWORD is refused: " + e.getMessage());
            }
        }
        try {
            ensure();
        } catch (RuntimeException | java.sql.SQLException e) {
            LOG.warn("accounts: cannot check for the first admin yet ({}); trying again in the background",
                    e.getMessage());
            retrying = Thread.ofVirtual().name("first-admin").start(this::retry);
        }
    }

    /** The password generated at this start, for the banner; empty when it was set or the admin existed. */
    public Optional<String> generatedPassword() {
        return Optional.ofNullable(generated);
    }

    public Path passwordFile() {
        return passwordFile;
    }

    private void retry() {
        while (!Thread.currentThread().isInterrupted()) {
            try {
                Thread.sleep(RETRY_MILLIS);
                ensure();
                return;
            } catch (InterruptedException e) {
                return;
            } catch (RuntimeException | java.sql.SQLException e) {
                LOG.debug("accounts: first admin not made yet: {}", e.getMessage());
            }
        }
    }

    private void ensure() throws java.sql.SQLException {
        database.ensureMigrated();
        boolean set = !auth.adminPassword().isBlank();
        String password = set ? auth.adminPassword() : SecretTokens.newToken("").substring(0, 24);
        String hash = passwords.hashNew(password, Authenticator.ADMIN_USERNAME);
        boolean made = database.transaction(c -> {
            if (Accounts.count(c) > 0) {
                return false;
            }
            if (!Accounts.insert(c, userId, Authenticator.ADMIN_USERNAME, Role.ADMIN, hash, Instant.now())) {
                return false;
            }
            AccountEvents.append(c, Instant.now(), AccountEvents.ADMIN_CREATED, userId, null, null,
                    Map.of("passwordFrom", set ? "AGENTBUS_ADMIN_PASSWORD" : PASSWORD_FILE));
            if (!set) {
                // Written before the commit: if the commit fails, the next try writes a new one.
                write(password);
            }
            return true;
        });
        if (made && !set) {
            generated = password;
            LOG.warn("Made the first admin: username admin, password in {}", passwordFile);
        } else if (made) {
            LOG.info("Made the first admin: username admin, password from AGENTBUS_ADMIN_PASSWORD");
        }
    }

    private void write(String password) {
        try {
            Files.createDirectories(passwordFile.getParent());
            Path tmp = passwordFile.resolveSibling(PASSWORD_FILE + ".tmp");
            Files.deleteIfExists(tmp);
            Files.createFile(tmp);
            try {
                Files.setPosixFilePermissions(tmp, PosixFilePermissions.fromString("rw-------"));
            } catch (UnsupportedOperationException notPosix) {
                // best effort on non-POSIX file systems
            }
            Files.writeString(tmp, password + "\n");
            Files.move(tmp, passwordFile, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        } catch (IOException e) {
            throw new IllegalStateException("cannot write " + passwordFile + ": " + e.getMessage(), e);
        }
    }

    @PreDestroy
    void stop() {
        Thread t = retrying;
        if (t != null) {
            t.interrupt();
        }
    }
}
