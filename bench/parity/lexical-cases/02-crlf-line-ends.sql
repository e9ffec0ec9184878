-- a leading note
select 'crlf' as kind, 1 as n;
/* a block
   comment */ select 2 as n;
-- nl: written on Windows
select 3 as n; -- nl: beside SQL
