package io.spiffeidt.support.testapp;

import io.spiffeidt.support.caller.AllowedCallers;
import io.spiffeidt.support.caller.Caller;
import io.spiffeidt.support.identity.Role;
import java.util.Map;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RestController;

/** The class-level annotation applies to every method; a method annotation replaces it. */
@RestController
@AllowedCallers(Role.SUBJECT_WL)
public class SubjectOnlyController {

    /** subject-wl only (class annotation). */
    @PostMapping("/subject/mint")
    public Map<String, Object> mint(Caller caller) {
        return Map.of("caller", caller.id().toString());
    }

    /** m-tier only (method annotation replaces the class one). */
    @AllowedCallers(Role.M_TIER)
    @PostMapping("/subject/validate")
    public Map<String, Object> validate(Caller caller) {
        return Map.of("caller", caller.id().toString());
    }
}
