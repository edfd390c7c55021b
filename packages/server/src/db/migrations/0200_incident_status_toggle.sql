-- 0200: the detail header's toggle (seed 001 section 2) closes an open incident and reopens any
-- other status. The dropdown's table (section 4) has every reopen move but one, investigating ->
-- open, so the toggle's "Reopen Incident" on an investigating incident was refused. The status
-- the server accepts is the table plus the toggle's moves (core acceptedStatusMoves); the web's
-- dropdown still offers the table only.
CREATE OR REPLACE FUNCTION incident_status_moves(from_status text) RETURNS text[] LANGUAGE sql IMMUTABLE AS $$
  SELECT CASE from_status
    WHEN 'new'           THEN ARRAY['new', 'open', 'investigating', 'mitigated', 'resolved', 'closed']
    WHEN 'open'          THEN ARRAY['open', 'investigating', 'mitigated', 'resolved', 'closed']
    WHEN 'investigating' THEN ARRAY['investigating', 'mitigated', 'resolved', 'closed', 'open']
    WHEN 'mitigated'     THEN ARRAY['resolved', 'closed', 'open']
    WHEN 'resolved'      THEN ARRAY['closed', 'open']
    WHEN 'closed'        THEN ARRAY['open']
    ELSE ARRAY[]::text[]
  END
$$;
