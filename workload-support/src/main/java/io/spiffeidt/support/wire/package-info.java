/**
 * The JSON bodies exchanged between the workloads: one definition shared by caller and callee, so no
 * workload depends on another.
 */
package io.spiffeidt.support.wire;
