package io.spiffeidt.devstack.it;

import io.spiffeidt.devstack.DevStack;
import io.spiffeidt.devstack.DevStackSettings;
import org.junit.jupiter.api.AfterAll;

/**
 * Base of the system ITs: one embedded stack per test class, started by the class's
 * {@code @BeforeAll} through {@link #startStack(DevStackSettings)} and stopped after the class.
 * Test classes run one after the other, so the stack fields are never shared by two running classes.
 */
abstract class EmbeddedStackIT {

    static DevStack stack;
    static SystemClient client;

    static void startStack(DevStackSettings settings) {
        stack = DevStack.start(settings);
        client = new SystemClient(stack);
    }

    @AfterAll
    static void stopStack() {
        if (stack != null) {
            stack.close();
            stack = null;
            client = null;
        }
    }
}
