-- A ledger transaction must balance: its entries (debits positive, credits negative) sum to zero.
-- Checked by a deferred constraint trigger at commit, so entries can be inserted one by one inside the
-- transaction, and no writer (ours or a console session) can commit an unbalanced posting.
CREATE FUNCTION ledger_assert_balanced() RETURNS trigger AS $$
DECLARE
  imbalance NUMERIC;
BEGIN
  SELECT COALESCE(SUM("amountCents"), 0) INTO imbalance FROM "LedgerEntry" WHERE "transactionId" = NEW."transactionId";
  IF imbalance <> 0 THEN
    RAISE EXCEPTION 'ledger transaction % is unbalanced by % cents', NEW."transactionId", imbalance
      USING ERRCODE = 'check_violation';
  END IF;
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;

CREATE CONSTRAINT TRIGGER ledger_entry_balanced
  AFTER INSERT OR UPDATE OR DELETE ON "LedgerEntry"
  DEFERRABLE INITIALLY DEFERRED
  FOR EACH ROW EXECUTE FUNCTION ledger_assert_balanced();
