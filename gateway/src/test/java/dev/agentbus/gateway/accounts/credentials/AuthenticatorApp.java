package dev.agentbus.gateway.accounts.credentials;

/** What a person's authenticator app does, for tests elsewhere: the code a secret shows at a time step. */
public final class AuthenticatorApp {
    private AuthenticatorApp() {
    }

    public static String code(String base32Secret, long step) {
        return Totp.code(Base32.decode(base32Secret), step, 6, "HmacSHA1");
    }
}
