package dev.agentbus.gateway.accounts.twofactor;

import dev.agentbus.api.ApiJson;
import dev.agentbus.api.accounts.TotpEnrolment;
import dev.agentbus.gateway.accounts.auditing.AccountEvents;
import dev.agentbus.gateway.accounts.credentials.BackupCodes;
import dev.agentbus.gateway.accounts.credentials.QrCodes;
import dev.agentbus.gateway.accounts.credentials.Totp;
import dev.agentbus.gateway.accounts.users.Account;
import dev.agentbus.gateway.accounts.users.Accounts;
import dev.agentbus.gateway.accounts.users.Reauthentication;
import dev.agentbus.gateway.auth.Authenticator;
import dev.agentbus.gateway.auth.Caller;
import dev.agentbus.gateway.errors.ApiException;
import dev.agentbus.gateway.readmodels.ReadModelDatabase;
import io.micronaut.core.annotation.Nullable;
import io.micronaut.http.HttpRequest;
import io.micronaut.http.HttpResponse;
import io.micronaut.http.HttpStatus;
import io.micronaut.http.MediaType;
import io.micronaut.http.annotation.Body;
import io.micronaut.http.annotation.Consumes;
import io.micronaut.http.annotation.Controller;
import io.micronaut.http.annotation.Post;
import io.micronaut.http.annotation.Produces;
import io.micronaut.scheduling.TaskExecutors;
import io.micronaut.scheduling.annotation.ExecuteOn;

import java.time.Clock;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;

import static dev.agentbus.gateway.auth.Callers.addressOf;
import static dev.agentbus.gateway.auth.Callers.callerOf;

/**
 * TOTP enrolment: {@code POST /api/v1/me/totp} makes a secret (with its QR code) and backup codes, pending until
 * {@code POST /api/v1/me/totp/confirm} gets a first valid code from the authenticator; from then on every login
 * needs a code. A pending enrolment can be started again; an active one cannot be replaced this way.
 */
@Controller("/api/v1/me/totp")
@ExecuteOn(TaskExecutors.BLOCKING)
class TotpController {
    static final String ISSUER = "Agentbus";
    static final int BACKUP_CODES = 10;

    private final ReadModelDatabase database;
    private final Authenticator authenticator;
    private final Reauthentication reauthentication;
    private final Clock clock = Clock.systemUTC();

    TotpController(ReadModelDatabase database, Authenticator authenticator, Reauthentication reauthentication) {
        this.database = database;
        this.authenticator = authenticator;
        this.reauthentication = reauthentication;
    }

    public record Confirm(@Nullable String code) {
    }

    public record Enrol(@Nullable String currentPassword) {
    }

    /** Needs a browser login and the current password: a leaked key must not enrol a secret only its thief knows. */
    @Post
    @Consumes(MediaType.APPLICATION_JSON)
    @Produces(MediaType.APPLICATION_JSON)
    public HttpResponse<String> enrol(@Body @Nullable Enrol body, HttpRequest<?> request) {
        Caller caller = callerOf(request);
        reauthentication.require(caller, body == null ? null : body.currentPassword(), "turn on two-factor login");
        String secret = Totp.newSecret();
        List<String> codes = BackupCodes.generate(BACKUP_CODES);
        Account account = database.query(c -> {
            Account a = Accounts.byId(c, caller.userId())
                    .orElseThrow(() -> ApiException.badRequest("the gateway token has no account; log in"));
            if (a.totpEnabled()) {
                throw new ApiException(HttpStatus.CONFLICT, "two-factor login is already on for " + a.username());
            }
            Accounts.setPendingTotp(c, a.userId(), secret);
            SecondFactor.replaceBackupCodes(c, a.userId(), codes);
            return a;
        });
        String uri = Totp.otpauthUri(ISSUER, account.username(), secret);
        return HttpResponse.created(ApiJson.write(new TotpEnrolment(secret, uri, QrCodes.svg(uri), codes)));
    }

    @Post("/confirm")
    @Consumes(MediaType.APPLICATION_JSON)
    public HttpResponse<Void> confirm(@Body @Nullable Confirm body, HttpRequest<?> request) {
        Caller caller = callerOf(request);
        if (caller.via() == Caller.Via.API_KEY) {
            throw new ApiException(HttpStatus.FORBIDDEN, "an API key cannot turn on two-factor login: log in with "
                    + "a browser");
        }
        String code = body == null || body.code() == null ? "" : body.code().strip();
        if (!code.matches("\\d{6}")) {
            throw ApiException.badRequest("code must be the 6 digits your authenticator shows");
        }
        Instant now = clock.instant();
        database.query(c -> {
            Account a = Accounts.byId(c, caller.userId())
                    .orElseThrow(() -> ApiException.badRequest("the gateway token has no account; log in"));
            if (a.totpEnabled()) {
                throw new ApiException(HttpStatus.CONFLICT, "two-factor login is already on");
            }
            if (a.totpSecret() == null) {
                throw new ApiException(HttpStatus.CONFLICT, "no enrolment to confirm: POST /api/v1/me/totp first");
            }
            OptionalLong step = Totp.matchingStep(a.totpSecret(), code, now);
            if (step.isEmpty() || !Accounts.useTotpStep(c, a.userId(), step.getAsLong())) {
                throw ApiException.badRequest("wrong code: check the authenticator's clock and try the next one");
            }
            Accounts.enableTotp(c, a.userId());
            AccountEvents.append(c, now, AccountEvents.TOTP_ENROLLED, a.userId(), a.userId(), addressOf(request),
                    Map.of());
            return null;
        });
        authenticator.forgetUser(caller.userId());
        return HttpResponse.noContent();
    }
}
