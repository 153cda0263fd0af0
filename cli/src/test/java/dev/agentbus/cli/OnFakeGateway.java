package dev.agentbus.cli;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;

/**
 * A CLI command test: a fresh {@link FakeGateway} and CLI home per test, the CLI pointed at that gateway. The gateway
 * is faked because these tests pin what the CLI sends and how it shows the answers, errors included; the system tests
 * run the real CLI against the real gateway. A test class adds its routes in a {@code @BeforeEach} of its own, which
 * runs after this one.
 */
public abstract class OnFakeGateway {
    @TempDir
    protected Path home;
    protected FakeGateway gateway;
    protected TestCli cli;

    @BeforeEach
    void startFakeGateway() throws Exception {
        gateway = new FakeGateway();
        cli = new TestCli(home);
        cli.env.put("AGENTBUS_URL", gateway.url());
    }

    @AfterEach
    void stopFakeGateway() {
        gateway.close();
    }
}
