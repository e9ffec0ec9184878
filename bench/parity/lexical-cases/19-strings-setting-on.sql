do $$ begin execute format('alter database %I reset standard_conforming_strings', current_database()); end $$;
select 'a\' as s; -- a backslash is an ordinary character again
