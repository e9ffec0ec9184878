do $$ begin execute format('alter database %I set standard_conforming_strings = off', current_database()); end $$;
