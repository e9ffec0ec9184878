insert into parity_dutch values (3);
select 1/0;
-- nl: more rows follow
