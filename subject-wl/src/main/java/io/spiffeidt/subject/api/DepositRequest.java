package io.spiffeidt.subject.api;

/** The user's deposit body. */
public record DepositRequest(Long amount) {}
