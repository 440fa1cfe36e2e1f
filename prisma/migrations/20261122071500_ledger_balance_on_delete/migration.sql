-- The balance check also covers entries deleted from a transaction, or moved to another one by an update:
-- the first version checked only NEW, so deleting one entry of a balanced transaction committed an
-- unbalanced ledger. Every transaction an entry leaves or joins is checked at commit.
CREATE OR REPLACE FUNCTION ledger_assert_balanced() RETURNS trigger AS $$
DECLARE
  touched TEXT;
  imbalance NUMERIC;
BEGIN
  FOREACH touched IN ARRAY ARRAY[
    CASE WHEN TG_OP IN ('INSERT', 'UPDATE') THEN NEW."transactionId" END,
    CASE WHEN TG_OP IN ('DELETE', 'UPDATE') THEN OLD."transactionId" END
  ] LOOP
    CONTINUE WHEN touched IS NULL;
    SELECT COALESCE(SUM("amountCents"), 0) INTO imbalance FROM "LedgerEntry" WHERE "transactionId" = touched;
    IF imbalance <> 0 THEN
      RAISE EXCEPTION 'ledger transaction % is unbalanced by % cents', touched, imbalance
        USING ERRCODE = 'check_violation';
    END IF;
  END LOOP;
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;
