-- Issue #32 item 4 (DECISIONS "Security findings of 2026-11-28", EMR pulls): a connection whose grant the EMR
-- refused is `needs-reauthorization` (was `needs-authorization`). Data only; no schema change.
UPDATE "EmrConnection" SET "status" = 'needs-reauthorization' WHERE "status" = 'needs-authorization';
