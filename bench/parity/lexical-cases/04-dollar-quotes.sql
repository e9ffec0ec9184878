select $$ /* nl: inside dollar quotes */ ; -- nl: x $$ as s;
select $tag$ $$ ; /* nl: x */ ; $$ $tag$ as s;
create function parity_dollar(int) returns text language sql as $body$ select '-- nl: ' || $1::text $body$;
select parity_dollar(1);
select 1 as a$b$;
